"""The wire between the server and its clients: messages, a strict msgpack codec and a
sans-I/O connection. Built in its own issue; empty until then."""
