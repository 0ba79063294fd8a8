import type { QuestionType } from '#shared/schemas/tms/constants'

/** A valid question of every type (seed 001 §3), as the editor would send it. Tests derive violations from these. */
export function validQuestion(type: QuestionType): Record<string, unknown> & { type: QuestionType } {
  const choice = (answers: boolean[]) => answers.map((answer, i) => ({ statement: `<p>Option ${String.fromCharCode(65 + i)}</p>`, answer }))
  switch (type) {
    case 'info':
      return { type, statement: '<p>Read the text below.</p>', media_type: 'text' }
    case 'section':
      return { type, statement: '<h2>Part two</h2>' }
    case 'text':
      return { type, statement: '<p>Explain photosynthesis.</p>', score: 2, options: { min_text_count: 10, max_text_count: 500 } }
    case 'text_ai':
      return {
        type,
        statement: '<p>Describe the water cycle.</p>',
        comment: '<p>Evaporation, condensation, precipitation.</p>',
        options: { min_text_count: 10, max_text_count: 800 },
      }
    case 'single':
      return { type, statement: '<p>Which is a prime number?</p>', score: 1, shuffle: true, options: choice([true, false, false]) }
    case 'multi':
      return { type, statement: '<p>Which are even numbers?</p>', score: 1.5, partial_score: true, options: choice([true, true, false]) }
    case 'true_false':
      return { type, statement: '<p>The Earth orbits the Sun.</p>', score: 1, options: choice([true, false]) }
    case 'fill_letters':
      return { type, statement: '<p>Spell the capital of France.</p>', score: 1, options: { question: 'Capital of France', answer: 'Paris' } }
    case 'fill_words':
      return {
        type,
        statement: '<p>Complete the sentence.</p>',
        score: 2,
        shuffle: true,
        options: { sentence: 'The [[sun]] rises in the [[east]].', incorrect: ['moon'], mode: 'select' },
      }
    case 'cloud':
      return { type, statement: '<p>Build the sentence.</p>', score: 1, options: { phrase: 'cats like milk', extra: ['dogs'] } }
    case 'order_sentences':
      return { type, statement: '<p>Put the steps in order.</p>', score: 1, options: { sentences: ['Wake up', 'Brush teeth', 'Go to school'], incorrect: [] } }
    case 'media':
      return { type, statement: '<p>Record yourself reading the poem.</p>', score: 1, options: { accept: ['audio'] } }
    case 'essay':
      return {
        type,
        statement: '<p>Write an essay about technology at school.</p>',
        score: 10,
        options: {
          language: 'pt-BR',
          genre: 'gn-demo-diss',
          min_word_count: 150,
          max_word_count: 400,
          assessed_skill_ids: ['sk-demo-c1'],
          assessed_skill_group_id: '',
          support_text: '',
        },
      }
    case 'game':
      return { type, statement: '<p>Play the fractions game.</p>', score: 1, options: { url: 'https://games.example.org/fractions' } }
  }
}
