"""The revisions, oldest first by their number (each names its ``down_revision``)."""
