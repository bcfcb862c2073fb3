"""Reaching programs and websites: webhooks, embeds, calendar feeds, rating exports: the top layer."""
