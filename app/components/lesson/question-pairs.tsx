/** A lesson's question-answer pairs as a definition list (the previews, the student's lesson, the generation result). */
export function QuestionPairList({ pairs }: { pairs: readonly { question: string; answer: string }[] }) {
  return (
    <dl>
      {pairs.map((p, i) => (
        <div key={i}>
          <dt>{p.question}</dt>
          <dd>{p.answer}</dd>
        </div>
      ))}
    </dl>
  )
}
