import * as faceapi from '@vladmandic/face-api'
import manifest from '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json'
import weightsUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url'

/**
 * The persona image's face detector (issue 16 "a face must be detected"), in the browser: face-api's tiny face
 * detector, whose weights ship in the npm package (`@vladmandic/face-api/model/`, 190 kB, built as a hashed asset) and
 * are read once. This module is imported only when the editor's photo step checks an image (a dynamic import), so
 * tfjs and the detector are in no other route's chunk.
 */
let loading: Promise<void> | null = null

/** The parts of face-api's bundled tfjs used here (its typings leave `ready` out of the namespace). */
const tf = faceapi.tf as unknown as {
  ready(): Promise<void>
  io: { decodeWeights(data: ArrayBuffer, specs: unknown): Record<string, unknown> }
}

function ready(): Promise<void> {
  loading ??= (async () => {
    await tf.ready()
    const res = await fetch(weightsUrl)
    if (!res.ok) throw new Error(`face detector weights: ${res.status}`)
    const weights = tf.io.decodeWeights(await res.arrayBuffer(), manifest[0].weights)
    faceapi.nets.tinyFaceDetector.loadFromWeightMap(weights as Parameters<typeof faceapi.nets.tinyFaceDetector.loadFromWeightMap>[0])
  })().catch((err: unknown) => {
    loading = null
    throw err
  })
  return loading
}

/** How many faces the detector finds in an image, a canvas or a video frame. */
export async function countFaces(input: HTMLImageElement | HTMLCanvasElement): Promise<number> {
  await ready()
  const found = await faceapi.detectAllFaces(input, new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 }))
  return found.length
}
