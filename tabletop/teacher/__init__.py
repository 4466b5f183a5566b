"""The teacher's console: a web dashboard (:mod:`.app`) in front of the classroom fleet's
:class:`~tabletop.classroom.fleet.coordinator.Coordinator`, behind the teacher PIN
(:mod:`.auth`); ``tabletop teacher`` (:mod:`.cli`) runs both."""
