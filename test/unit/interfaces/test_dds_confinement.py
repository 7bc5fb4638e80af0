"""DESIGN §5 (network confinement): every entry point keeps DDS on this machine. The
profile must reach the Fast DDS that Jazzy ships (2.14), which reads
FASTRTPS_DEFAULT_PROFILES_FILE; issue 19 found that only FASTDDS_DEFAULT_PROFILES_FILE
(Fast DDS 3's name) was set, so the profile never applied."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from buddy_personality.dds_confinement import confine_dds, profile_path

NS = {"f": "http://www.eprosima.com/XMLSchemas/fastRTPS_Profiles"}


def test_both_fast_dds_profile_variables_name_the_loopback_profile() -> None:
    env = confine_dds({})
    assert env["FASTRTPS_DEFAULT_PROFILES_FILE"] == str(profile_path())   # Fast DDS 2.x
    assert env["FASTDDS_DEFAULT_PROFILES_FILE"] == str(profile_path())    # Fast DDS 3.x
    assert env["ROS_AUTOMATIC_DISCOVERY_RANGE"] == "LOCALHOST"
    assert Path(env["FASTRTPS_DEFAULT_PROFILES_FILE"]).is_file()


def test_network_opt_out_leaves_the_environment_as_the_user_set_it() -> None:
    env = confine_dds({"BUDDY_DDS": "network", "ROS_STATIC_PEERS": "10.0.0.2"}, domain_id=7)
    assert env == {"BUDDY_DDS": "network", "ROS_STATIC_PEERS": "10.0.0.2",
                   "ROS_DOMAIN_ID": "7"}


def test_profile_allows_only_loopback_and_shared_memory() -> None:
    root = ET.parse(profile_path()).getroot()
    participant = root.find(".//f:participant[@is_default_profile='true']", NS)
    assert participant is not None
    assert participant.findtext(".//f:useBuiltinTransports", namespaces=NS) == "false"
    kinds = {t.findtext("f:type", namespaces=NS)
             for t in root.iterfind(".//f:transport_descriptor", NS)}
    assert kinds == {"UDPv4", "SHM"}
    assert [a.text for a in root.iterfind(".//f:interfaceWhiteList/f:address", NS)] == ["127.0.0.1"]


@pytest.mark.parametrize("domain_id", [-1, 102])
def test_domain_id_out_of_range_is_refused(domain_id: int) -> None:
    with pytest.raises(ValueError, match="ROS_DOMAIN_ID"):
        confine_dds({}, domain_id=domain_id)
