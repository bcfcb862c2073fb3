# Users, groups and tokens are administered through django.contrib.auth and DRF's authtoken admin.
