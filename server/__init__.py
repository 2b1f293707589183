"""The trio game server: lobbies, tables, clocks and limits. Built in its own issue; empty
until then."""
