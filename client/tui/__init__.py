"""The terminal client: one Textual app whose networking is trio in guest mode.

`app.CoupApp` is the app; `net.Net` its trio side (the one transport loop driving the client
core, client/core/, and an embedded server); `screens/` the menu, lobby, table and results;
`widgets/` the table's parts. The sentences come from client/narrate.py.
"""
