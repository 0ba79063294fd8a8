-- Platform root is not realm root (issue 11). Platform-level permissions (PLATFORM_PERMISSIONS in
-- app/schemas/permission.ts; keep this list equal to it) reach beyond one realm tree, so they belong to the platform
-- operator role (`platform`) only. Every other role loses them, in every realm; the seeded `root` roles say what they
-- now are. Production's first operator gets the `platform` role out of band (`npm run platform:grant`).
DELETE FROM role_permission
WHERE role <> 'platform'
  AND permission IN ('mas_realm_list_all', 'mas_config_get', 'mas_config_edit', 'mas_realm_edit_infra', 'ledger_transfer_cross_realm');

UPDATE role SET description = 'Realm root: every permission within the realm and its child realms; no platform-level permission.'
WHERE role = 'root' AND description = 'Platform root: every permission in every realm.';
