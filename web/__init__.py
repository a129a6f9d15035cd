"""The Flask dashboard, JSON API, server-sent events and admin pages."""
