import type { PlainEntity } from './define'
import objective from './achievement-objective'
import track from './achievement-track'
import agent from './cgs-agent'
import channelCategory from './channel-category'
import csmCategory from './csm-category'
import metaverseRoom from './metaverse-room'
import roomCard from './room-card'
import skill from './tms-assessed-skill'
import category from './tms-category'
import genre from './tms-genre'

/**
 * Every plain entity, in the order the API mounts them. The Worker is bundled by wrangler (esbuild: no
 * import.meta.glob), so this is the one list a new entity is added to; tests/workers/entities.test.ts fails when a
 * file of this folder is missing here.
 */
export const PLAIN_ENTITIES: PlainEntity[] = [
  category,
  skill,
  genre,
  metaverseRoom,
  channelCategory,
  roomCard,
  csmCategory,
  agent,
  objective,
  track,
] as PlainEntity[]

/** The plain entity named `name`, or undefined. */
export const plainEntity = (name: string) => PLAIN_ENTITIES.find((e) => e.name === name)
