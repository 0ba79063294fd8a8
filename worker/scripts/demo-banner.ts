/** Prints the demo accounts of `npm start`, with a fresh token-login link. Usage: tsx worker/scripts/demo-banner.ts <port> */
import { mintPortalToken } from '../lib/state-portal'
import { DEMO_EMPLOYEES, DEMO_PORTAL_SECRET } from '../seed/demo'

const port = process.argv[2] ?? '8787'
// A ready-to-click token-login link, as the state portal would send it (valid 24 hours, single use).
const employee = DEMO_EMPLOYEES[0]
const portalToken = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', employee.id, 24 * 60 * 60)
console.log(`  Demo accounts (password demo1234, local demo data only):
    demo    root (realm root of demo and its children) · platform (platform operator: every realm) · manager · teacher · tutor · student (no console access)
    escola  root (escola's realm root; TV-provider tab: click the logo 10 times)
    demo-sul  admin (a child realm of demo) at http://demo-sul.localhost:${port}/
    escola employees: ${DEMO_EMPLOYEES.map((e) => `${e.doc_type.toUpperCase()} ${e.doc_number}${e.uf === '-' ? '' : ` / ${e.uf}`}`).join(' · ')}
    Development outbox (recovery e-mails; sign in as staff, e.g. root): http://demo.localhost:${port}/authentication/outbox

  Token login for ${employee.nick} (single use, 24 h):
    http://escola.localhost:${port}/?token=${portalToken}&provider=employee_token&realm=escola
`)
