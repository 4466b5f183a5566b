"""The app's screens: home, player setup, Mathe-Meister (solo and at the table), dice,
results, settings and their dialogs."""
