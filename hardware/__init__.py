"""Seat buttons and LEDs (gpiozero), their pin map, and the keyboard stand-in."""
