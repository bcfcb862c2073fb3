"""Federation events: sections, title matches, series and rating lists (issue 27): above tournaments."""
