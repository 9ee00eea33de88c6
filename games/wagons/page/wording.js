// The engine's advice for the command line about the opponent's pile as it reads on the page.
export const wordRules = [
  [/\(--opponent-pile [^)]*\)/g, () => "(the Opponent's pile field)"],
  [/\(--opponent-town FILE\)/g, () => "(the command line only)"],
  [/\(--opponent-pile or --opponent-town\)/g, () => "(the Opponent's pile field)"],
];
