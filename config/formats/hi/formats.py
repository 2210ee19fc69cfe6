# Hindi: the Indian digit grouping (thousands, then lakhs and crores: 1,50,000), and the
# 24-hour clock (Django's Hindi catalog writes both AM and PM as "बजे", which says neither).
NUMBER_GROUPING = (3, 2, 0)
THOUSAND_SEPARATOR = ","
DECIMAL_SEPARATOR = "."
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d-m-Y H:i"
