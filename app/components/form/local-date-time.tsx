import { useEffect, useState, type InputHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { dateTimePattern, readDateTime, showDateTime } from '~/lib/dates'

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange' | 'type' | 'name'> & {
  /** `YYYY-MM-DDTHH:mm` in the realm's zone, or '' (or the text as typed while it cannot be read). */
  value: string
  onChange: (value: string) => void
}

/**
 * A date-time typed in the page language's format (`dd/mm/aaaa hh:mm`, en-US `mm/dd/yyyy hh:mm`) for the stateful
 * forms outside the form kit (publication dates): the browser's own date-time input follows the browser's language,
 * not the page's. The value handed on is `YYYY-MM-DDTHH:mm`; a text that cannot be read is handed on as typed, so the
 * server's validation names it under the field.
 */
export function LocalDateTimeInput({ value, onChange, ...input }: Props) {
  const { i18n } = useTranslation()
  const lang = i18n.language
  const [text, setText] = useState(() => showDateTime(value, lang))
  // A value set from outside (a reset, another language) is shown; one that the typed text already reads as is not.
  useEffect(() => {
    setText((typed) => ((typed.trim() === '' ? '' : (readDateTime(typed, lang) ?? typed)) === value ? typed : showDateTime(value, lang)))
  }, [value, lang])
  return (
    <input
      {...input}
      className="input"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={dateTimePattern(lang)}
      value={text}
      onChange={(e) => {
        const typed = e.currentTarget.value
        setText(typed)
        onChange(typed.trim() === '' ? '' : (readDateTime(typed, lang) ?? typed))
      }}
    />
  )
}
