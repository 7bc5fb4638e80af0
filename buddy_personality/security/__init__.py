"""Who may talk to whom on the graph (DESIGN erratum 19): the one table of each node's
topics and services (graph.py), the SROS2 policy generated from it (policy.py), and
`buddy security` (cli.py) that writes the policy and makes a keystore with sros2."""
