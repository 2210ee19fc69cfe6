# American English: 12-hour times without a closing full stop (see config/formats/__init__).
DATE_FORMAT = "F j, Y"
TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "F j, Y, g:i A"
SHORT_DATETIME_FORMAT = "m/d/Y g:i A"
