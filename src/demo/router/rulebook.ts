/** The demo's rulebook (YAML): no calculations, one request to rephrase, receipts only to email addresses. */
export const demoRulebookYaml = `# Plumb demo rulebook
compute: false
maxRephrase: 1
askToRephrase: true
batchWrites: false
destinations:
  send_receipt.email: [email]
contextParameters: {}
onUnread: refuse
`;

/**
 * The rulebook the demo app's reader uses: the demo rulebook with calculations on, so that "how many
 * open tasks does Apollo have?" is a count over the read (the router's own demo rulebook keeps them
 * off, as the reference examples expect).
 */
export const demoReadingRulebookYaml = demoRulebookYaml.replace('compute: false', 'compute: true');
