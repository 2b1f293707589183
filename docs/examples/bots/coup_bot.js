// A Coup bot for Node, with no packages: docs/BOTS.md, "A bot in any language".
// Run it with `coup arena --strategies exec:'node coup_bot.js',heuristic`.
const readline = require("readline");

// The moves it likes, best first: Coup when it can, Tax (Duke or not), Steal, then the rest.
const TASTE = ["coup", "tax", "steal", "foreign_aid", "income", "prove", "pass"];

function rank(move, hand) {
  if (move.kind === "challenge") return Math.random() < 0.05 ? 0 : 50; // challenge rarely
  if (move.kind === "block") return hand.includes(move.card) ? 1 : 40; // only with the card
  const i = TASTE.indexOf(move.kind);
  return i < 0 ? 20 : i;
}

const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") say({ ready: true, name: "jsbot" });
  else if (message.type === "decide") {
    const hand = message.view.hands[message.view.seat] || [];
    const ranks = message.moves.map((m) => rank(m, hand));
    say({ id: message.id, move: ranks.indexOf(Math.min(...ranks)) });
  } else if (message.type === "goodbye") process.exit(0);
});
