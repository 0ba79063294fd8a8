import { Hono } from 'hono'
import { Id } from '#shared/schemas/tms/common'
import { LESSON_CONTENT_FIELDS } from '#shared/schemas/lesson/lesson'
import { getLesson, lessonReaches, lessonStudentTasks, studentLessons } from '../../db/lesson'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { lessonOpenStatement } from '../../db/track-progress'
import { type AppEnv, parse, pathParam } from '../context'
import { studentList } from '../publication'
import { studentMedia } from './media'

/**
 * /lesson/student: the signed-in student's lessons (any signed-in user; only lessons published to them answer, as
 * the student task API does): the list, and one lesson's content with the tasks of its task models reaching them.
 */
export const lessonStudent = new Hono<AppEnv>().get('/', studentList(studentLessons)).get(
  '/:id',
  guarded({}, async (c, auth) => {
    const db = c.env.DB
    const id = parse(Id, pathParam(c, 'id'))
    const lesson = await getLesson(db, auth.realm, id)
    // Others' lessons and those not yet (or no longer) published are not revealed.
    if (!lesson || lesson.status !== 'published' || !(await lessonReaches(db, auth.realm, id, auth.nick)))
      throw apiError(404, 'lesson_not_found', `Lesson ${id} was not found.`, 'id', id)
    // A track counts the lesson as done once the student opened it (issue 19; the first time is kept).
    await lessonOpenStatement(db, auth.realm, id, auth.nick).run()
    const body = Object.fromEntries(LESSON_CONTENT_FIELDS.map((f) => [f, lesson[f]])) as Pick<typeof lesson, (typeof LESSON_CONTENT_FIELDS)[number]>
    return c.json({
      id: lesson.id,
      ...body,
      publish_at: lesson.publish_at,
      expire_at: lesson.expire_at,
      task_list: await lessonStudentTasks(db, auth.realm, auth.nick, lesson.tasks),
      // Narration audio and persona videos that are current, per slide (the browser speaks the others).
      media: await studentMedia(c, auth.realm, lesson),
    })
  }),
)
