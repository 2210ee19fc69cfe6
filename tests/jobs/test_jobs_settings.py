"""The jobs' settings come from the environment: where files are kept, the heartbeat and
the lease. Each case runs Django in a fresh process (tests/config/test_settings.py says why)."""

from __future__ import annotations

import pytest

from tests.config.test_settings import PRINT_SETTING, run_django

JOB_VARS = {
    "BOARDWALK_FILES_DIR": "",
    "BOARDWALK_S3_BUCKET": "",
    "BOARDWALK_S3_ENDPOINT_URL": "",
    "BOARDWALK_S3_REGION": "",
    "BOARDWALK_JOB_HEARTBEAT_SECONDS": "",
    "BOARDWALK_JOB_LEASE_SECONDS": "",
}


def setting(expression: str, **env: str) -> str:
    result = run_django(["-c", PRINT_SETTING.format(expression)], **{**JOB_VARS, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_files_are_kept_in_a_folder_that_is_never_served(tmp_path):
    jobs = "settings.STORAGES['jobs']"
    assert setting(f"{jobs}['BACKEND']") == "jobs.storage.AtomicFileSystemStorage"
    assert setting(f"{jobs}['OPTIONS']['location']").endswith("var/files")
    located = setting(f"{jobs}['OPTIONS']['location']", BOARDWALK_FILES_DIR=str(tmp_path))
    assert located == str(tmp_path)


def test_several_machines_keep_files_in_a_private_bucket():
    env = {
        "BOARDWALK_S3_BUCKET": "boardwalk-files",
        "BOARDWALK_S3_ENDPOINT_URL": "https://s3.example.org",
    }
    jobs = "settings.STORAGES['jobs']"
    assert setting(f"{jobs}['BACKEND']", **env) == "storages.backends.s3.S3Storage"
    options = f"{jobs}['OPTIONS']"
    assert setting(f"{options}['bucket_name']", **env) == "boardwalk-files"
    assert setting(f"{options}['endpoint_url']", **env) == "https://s3.example.org"
    assert setting(f"{options}['default_acl']", **env) == "private"


@pytest.mark.parametrize(
    ("url", "lease"), [("", "300.0"), ("postgres://u@h:5432/db", "30.0")], ids=["sqlite", "pg"]
)
def test_the_lease_is_longer_where_one_write_blocks_the_heartbeat(url, lease):
    assert setting("settings.BOARDWALK_JOB_LEASE_SECONDS", DATABASE_URL=url) == lease


def test_a_lease_shorter_than_two_heartbeats_is_refused():
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.BOARDWALK_JOB_LEASE_SECONDS")],
        **{**JOB_VARS, "BOARDWALK_JOB_HEARTBEAT_SECONDS": "5", "BOARDWALK_JOB_LEASE_SECONDS": "9"},
    )
    assert result.returncode != 0
    assert "more than twice BOARDWALK_JOB_HEARTBEAT_SECONDS" in result.stderr
