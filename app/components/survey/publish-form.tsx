import { LessonPublishForm } from '~/components/lesson/publish-form'

/**
 * A survey's publication (issue 19): the lesson's publish form (same targets and dates) with the survey's texts and
 * "reset to defaults"; with `initial`, the change of a published survey's targets and dates.
 */
export function SurveyPublishForm(props: Omit<Parameters<typeof LessonPublishForm>[0], 'texts' | 'resettable'>) {
  return (
    <LessonPublishForm
      {...props}
      texts={{ failed: props.initial ? 'survey.edit.failed' : 'survey.publish.failed', hint: 'survey.publish.expire_hint' }}
      resettable
    />
  )
}
