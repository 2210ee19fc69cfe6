# British English: day first and the 24-hour clock, as British tournament schedules print it.
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
