"""The terminal client: one Textual app whose networking is trio in guest mode.

`app.CoupApp` is the app; `net.Net` its trio side (the connection, reconnects, an embedded
server); `screens/` the menu, lobby, table and results; `widgets/` the table's parts;
`narrate` turns events and decisions into sentences; `model` keeps what the client knows.
"""
