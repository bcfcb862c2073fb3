"""Infrastructure below every app: the API error shape and base exception, the hand-made SQL
helpers, the CSV writer of every export (csvsafe), the workers' heartbeat table (models)."""
