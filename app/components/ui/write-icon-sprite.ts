/** `npm run icons`: writes icons.svg (the sprite `<Icon>` references) from icon-paths.ts, after an icon is added or changed. */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { iconSprite } from './icon-paths'

const file = fileURLToPath(new URL('./icons.svg', import.meta.url))
writeFileSync(file, iconSprite())
console.log(`wrote ${file}`)
