import re, sys, json
src, out, spec_file = sys.argv[1], sys.argv[2], sys.argv[3]
spec = json.load(open(spec_file))
s = open(src).read()
for manager, info in spec['managers'].items():
    start = s.index(f"export const {manager} = defineManager({{")
    end = s.index("\n});", start)
    block = s[start:end]
    block = block.replace(f"  table: ", f"  description: {json.dumps(info['description'])[0:0]}'{info['description']}',\n  table: ", 1)
    for field, desc in info.get('fields', {}).items():
        pat = re.compile(r"(\n    " + field + r": \{ (?:type|kind): [^\n]*?) \},")
        block, n = pat.subn(lambda m: m.group(1) + ", description: '" + desc + "' },", block, count=1)
        assert n == 1, (manager, field)
    block = block.replace("  // Nothing reaches a model until you set this to true.\n  chatExposed: false,", "  chatExposed: true,")
    s = s[:start] + block + s[end:]
s = s.replace("export default defineHost({\n", "export default defineHost({\n" + spec.get('host', ''))
open(out, 'w').write(s)
