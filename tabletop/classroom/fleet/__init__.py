"""The classroom fleet: every station and the teacher's console share one MQTT broker.

- :mod:`.messages`: topics, message bodies and their checks (the wire contract);
- :mod:`.config`: fleet files, the broker's configuration, password file and ACL;
- :mod:`.station`: a station's link (plan and clock in, status and results out);
- :mod:`.coordinator`: the teacher's console (plan, clocks, roster out; statuses and
  results in, each result stored once).
"""
