"""Dates of birth in an imported file, and the columns a file for an event must have.

A championship's file without a citizenship column got 22 identical refusals, one per
line; dates written DD/MM/YYYY were all refused. Now the missing column is one message
for the file, and dates are read as the file and the organizer's language write them.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from players.csv_dates import (
    DAY_FIRST,
    MONTH_FIRST,
    file_date_order,
    language_date_order,
    read_date,
)
from players.csv_io import import_registrations
from tests.builders import an_event

BORN = datetime.date(1990, 5, 25)


@pytest.mark.parametrize(
    ("language", "order"),
    [
        ("en", MONTH_FIRST),
        ("en-gb", DAY_FIRST),
        ("fr", DAY_FIRST),
        ("de", DAY_FIRST),
        ("hi", DAY_FIRST),
    ],
)
def test_each_language_writes_the_day_or_the_month_first(language, order):
    # en: 5/25/1990; en-GB, French, Spanish: 25/05/1990; German 25.05.1990; Hindi 25-05-1990.
    assert language_date_order(language) == order


@pytest.mark.parametrize(
    "written", ["25/05/1990", "25.05.1990", "25-05-1990", "05/25/1990", "1990-05-25"]
)
def test_a_date_that_reads_one_way_is_read_whatever_the_language(written):
    for language in ("en", "en-gb"):
        order = file_date_order([written], language=language)
        assert read_date(written, order=order) == (BORN, "")


def test_a_date_that_reads_two_ways_follows_the_language_when_the_file_says_nothing():
    # 03/04/1990: 3 April in Britain, March 4 in the United States.
    assert read_date("03/04/1990", order=file_date_order(["03/04/1990"], language="en-gb"))[
        0
    ] == datetime.date(1990, 4, 3)
    assert read_date("03/04/1990", order=file_date_order(["03/04/1990"], language="en"))[
        0
    ] == datetime.date(1990, 3, 4)


def test_the_files_own_dates_settle_the_order_before_the_language():
    # An American organizer uploads a British club's file: 25/05 shows it writes the day first.
    order = file_date_order(["25/05/1990", "03/04/1990"], language="en")
    assert order == DAY_FIRST
    assert read_date("03/04/1990", order=order)[0] == datetime.date(1990, 4, 3)


def test_a_file_writing_dates_both_ways_refuses_a_date_that_reads_two_ways_with_both_readings():
    order = file_date_order(["25/05/1990", "05/25/1990", "03/04/1990"], language="en")
    assert order is None
    assert read_date("25/05/1990", order=order) == (BORN, "")
    with translation.override("en"):
        date, problem = read_date("03/04/1990", order=order)
    assert date is None
    assert "April 3, 1990" in problem and "March 4, 1990" in problem and "YYYY-MM-DD" in problem


@pytest.mark.parametrize("written", ["03/04/90", "31/31/1990", "1990-02-30", "yesterday"])
def test_what_is_not_a_whole_date_is_refused(written):
    date, problem = read_date(written, order=DAY_FIRST)
    assert date is None and written in problem


@given(st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2099, 12, 31)))
def test_a_date_written_iso_or_in_the_languages_own_order_reads_back(date):
    assert read_date(date.isoformat(), order=None) == (date, "")
    british = date.strftime("%d/%m/%Y")
    american = date.strftime("%m/%d/%Y")
    assert read_date(british, order=file_date_order([british], language="en-gb"))[0] == date
    assert read_date(american, order=file_date_order([american], language="en"))[0] == date


HEADER = "first_name,last_name,date_of_birth,eligibility_declared\n"


@pytest.mark.django_db
def test_a_championship_file_without_citizenship_is_one_message_for_the_file():
    championship = an_event(fmt="championship")
    lines = "".join(f"Player,Number{n},1990-05-{n:02d},yes\n" for n in range(1, 23))
    result = import_registrations(event=championship, text=HEADER + lines)
    (only,) = result.errors
    assert only[0] == 1 and "citizenship_declared" in only[1]


@pytest.mark.django_db
def test_a_british_file_imports_for_a_british_organizer():
    club = an_event(fmt="club", expected_players=24)
    text = HEADER + "Ada,Lovelace,10/12/1990,yes\nAlan,Turing,23/06/1982,yes\n"
    with translation.override("en-gb"):
        result = import_registrations(event=club, text=text)
    assert result.ok and result.created == 2
    born = sorted(club.players.values_list("date_of_birth", flat=True))
    assert born == [datetime.date(1982, 6, 23), datetime.date(1990, 12, 10)]
