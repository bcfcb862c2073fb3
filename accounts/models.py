# Roles are auth groups (see accounts.roles); this app has no models of its own.
