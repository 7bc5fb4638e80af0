"""`buddy` command line and the live view of `buddy run`."""
