"""The Textual terminal client, its networking and the headless bot runner."""
