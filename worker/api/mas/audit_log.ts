import { auditLogEntity } from '#shared/schemas/technical'
import { crud } from '../../lib/entity'

/** Both technical screens need one of these (seed 000 §2.2). */
export const TECHNICAL = ['mas_realm_technical', 'mas_realm_edit_infra']

/** GET /mas/audit_log: the caller's realm's audit trail (limit, offset, like, order, at_from/at_to, actor, action, entity…). */
export const auditLog = crud(auditLogEntity, { permissions: { list: TECHNICAL, get: TECHNICAL } })
