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
