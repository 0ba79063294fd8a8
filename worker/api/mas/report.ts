import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { realmReportReasons } from '../../db/realms'
import * as v from 'valibot'
import { ListQuery } from '#shared/schemas/common'
import { REPORT_STATUSES, ReportCreate, ReportUpdate, reportEntity, type ComplaintReport } from '#shared/schemas/report'
import { checkWordFilter } from '../../db/word-filter'
import { auditStatement } from '../../db/audit'
import { randomToken } from '../../lib/crypto'
import { decodeRow, filterScope, getRawRow, insertStatement, listRows, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { type AppEnv, parse, pathParam } from '../context'

/** Complaint reports (seed 000 §7 GET /mas/report; the realm/report screen). */
export const report = new Hono<AppEnv>()
  /** GET /mas/report (limit, offset, order, filter, like): `filter` is the status (open, resolved, dismissed);
   * the declared field filters (target_type, reason, reporter, created_at_from/_to…) apply too. */
  .get(
    '/',
    guarded({ all: ['mas_report_list'] }, async (c, auth) => {
      const query = parse(ListQuery, c.req.query())
      const { filter } = parse(v.object({ filter: v.optional(v.union([v.literal(''), v.picklist(REPORT_STATUSES, 'validation.picklist')])) }), {
        filter: c.req.query('filter'),
      })
      const params = { ...c.req.query(), ...(filter ? { status: filter } : {}) }
      return c.json(await listRows(c.env.DB, reportEntity, realmScope(reportEntity, auth), query, filterScope(reportEntity, params)))
    }),
  )
  /**
   * POST /mas/report: any signed-in user reports something in their realm, when the realm takes reports. The text is
   * stored through the realm's word filter (masked), like any text users post.
   */
  .post(
    '/',
    guardedJson({}, ReportCreate, async (c, auth, body) => {
      const reasons = await realmReportReasons(c.env.DB, auth.realm)
      if (!reasons) throw apiError(403, 'disabled', 'This realm does not take complaint reports.', 'realm', 'report_enabled')
      if (!reasons.includes(body.reason)) throw apiError(400, 'picklist', 'validation.picklist', 'reason', body.reason)
      const now = new Date().toISOString()
      const values: ComplaintReport = {
        id: randomToken(9),
        realm: auth.realm,
        target_type: body.target_type,
        target_id: body.target_id,
        reason: body.reason,
        message: (await checkWordFilter(c.env.DB, auth.realm, body.message)).text,
        status: 'open',
        reporter: auth.nick,
        resolution: '',
        created_at: now,
        updated_at: now,
        updated_by: auth.nick,
      }
      await runBatch(c.env.DB, [
        insertStatement(c.env.DB, reportEntity, { ...values }),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'create',
          entity: 'report',
          entityId: values.id,
          after: { ...values },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(values, 201)
    }),
  )
  /** PUT /mas/report/{id}: status and resolution note. */
  .put(
    '/:id',
    guardedJson({ all: ['mas_report_edit'] }, ReportUpdate, async (c, auth, body) => {
      const id = pathParam(c, 'id')
      const raw = await getRawRow(c.env.DB, reportEntity, realmScope(reportEntity, auth), id)
      if (!raw) throw apiError(404, 'not_found', `Report ${id} was not found.`, 'id', id)
      const before = decodeRow(reportEntity, raw)
      const values = { ...body, updated_at: new Date().toISOString(), updated_by: auth.nick }
      await runBatch(c.env.DB, [
        updateStatement(c.env.DB, reportEntity, realmScope(reportEntity, auth), id, values),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'report',
          entityId: id,
          before: { ...before },
          after: { ...before, ...values },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json({ ...before, ...values })
    }),
  )
