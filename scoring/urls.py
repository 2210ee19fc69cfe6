"""Scoring URLs: the banker's tablet pages and the judges' and organizer's results pages.

Each area keeps its routes beside its views; this module only puts them together.
"""

from .banker_urls import urlpatterns as banker_urlpatterns
from .cockpit_urls import urlpatterns as cockpit_urlpatterns
from .results_urls import urlpatterns as results_urlpatterns

app_name = "scoring"

urlpatterns = [*banker_urlpatterns, *results_urlpatterns, *cockpit_urlpatterns]
