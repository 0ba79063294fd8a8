import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { LessonPreview, lessonPreviewLinks } from '~/components/lesson/lesson-preview'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const links = lessonPreviewLinks

export const handle = { title: 'pages.lesson.lesson.preview' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'lesson.lesson.preview')
  return { lesson: await orErrorResponse(apiData(api.lesson.lesson[':id'].$get({ param: { id: params.modelId ?? '' } }))) }
}

export default function LessonPreviewRoute() {
  return <LessonPreview lesson={useLoaderData<typeof loader>().lesson} kind="lesson" />
}

export const ErrorBoundary = RouteError
