"""Infrastructure below every app: the API error shape and base exception, the hand-made SQL helpers."""
