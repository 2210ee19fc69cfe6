"""Scoring URLs: the judges' and organizer's results and standings pages.

Each area keeps its routes beside its views; this module only puts them together.
"""

from scoring.results_urls import urlpatterns as results_urlpatterns

app_name = "scoring"

urlpatterns = [*results_urlpatterns]
