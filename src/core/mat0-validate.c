/* mat0-validate.c - errors and lints of a material library (formats.md 2.6) */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-validate.h"

#define PALETTE_BANK_SIZE 286

/* Offsets inside a 64-byte directory entry (formats.md 1). */
#define DIR_NAME_OFFSET        20
#define DIR_DATA_OFFSET_OFFSET 56
#define DIR_SORT_INDEX_OFFSET  60

void
mat0_diagnostic_free (Mat0Diagnostic *diag)
{
  if (diag == NULL)
    return;

  g_free (diag->entry_name);
  g_free (diag->message);
  g_free (diag);
}

const char *
mat0_severity_to_string (Mat0Severity severity)
{
  switch (severity)
    {
    case MAT0_SEVERITY_ERROR:
      return "error";
    case MAT0_SEVERITY_LINT:
    default:
      return "lint";
    }
}

static Mat0Diagnostic *
diagnostic_new (Mat0Severity  severity,
                Mat0Check     check,
                gint          entry,
                const char   *entry_name,
                gsize         offset,
                char         *message)   /* (transfer full) */
{
  Mat0Diagnostic *diag = g_new0 (Mat0Diagnostic, 1);

  diag->severity = severity;
  diag->check = check;
  diag->entry = entry;
  diag->phase = -1;
  diag->block = -1;
  diag->key = -1;
  diag->offset = offset;
  diag->entry_name = g_strdup (entry_name != NULL ? entry_name : "(material)");
  if (severity == MAT0_SEVERITY_LINT)
    {
      /* Decode errors arrive as whole lines already; lints get the same
       * "ENTRY: offset N: " start. */
      diag->message = g_strdup_printf (_("%s: offset %lu: %s"), diag->entry_name,
                                       (unsigned long) offset, message);
      g_free (message);
    }
  else
    diag->message = message;

  return diag;
}

/* A texture name for a message: UTF-8, at most the 16 bytes of the field. */
static char *
texture_for_message (const Mat0Phase *phase)
{
  return cp1251_to_utf8 (phase->texture, MAT0_TEXTURE_SIZE);
}

static void
lint_phase (const Mat0Phase *phase,
            guint            index,
            gint             entry,
            const char      *entry_name,
            gsize            texture_offset,
            GPtrArray       *out)
{
  gsize len = mat0_phase_texture_len (phase);
  Mat0Diagnostic *diag;
  gint palette;

  if (len == 0)
    return;   /* deliberately untextured */

  if (len == MAT0_TEXTURE_SIZE)
    {
      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_NUL,
                             entry, entry_name, texture_offset,
                             g_strdup_printf (_("expected a NUL within the %d "
                                                "bytes of the texture name of "
                                                "phase %u, found none"),
                                              MAT0_TEXTURE_SIZE, index));
      diag->phase = (gint) index;
      g_ptr_array_add (out, diag);
    }

  if (memchr (phase->texture, '.', len) == NULL)
    {
      g_autofree char *name = texture_for_message (phase);

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
                             entry, entry_name, texture_offset,
                             g_strdup_printf (_("expected a '.' in the texture "
                                                "name \"%s\" of phase %u, found "
                                                "none (the game logs \"Bad "
                                                "texture name.\" and uses no "
                                                "texture)"),
                                              name, index));
      diag->phase = (gint) index;
      g_ptr_array_add (out, diag);
      return;
    }

  palette = mat0_texture_palette_index (phase->texture, len);
  if (palette >= PALETTE_BANK_SIZE)
    {
      g_autofree char *name = texture_for_message (phase);

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_PALETTE_INDEX,
                             entry, entry_name, texture_offset,
                             g_strdup_printf (_("expected a palette index below "
                                                "%d for the texture name \"%s\" "
                                                "of phase %u, found %d (the "
                                                "game reads past its palette "
                                                "bank)"),
                                              PALETTE_BANK_SIZE, name, index,
                                              palette));
      diag->phase = (gint) index;
      g_ptr_array_add (out, diag);
    }
}

void
mat0_lint_material (const Mat0Material *material,
                    gint                entry,
                    const char         *entry_name,
                    gsize               base_offset,
                    GPtrArray          *out)
{
  gsize off;

  g_return_if_fail (material != NULL);
  g_return_if_fail (out != NULL);

  off = base_offset + 4 + mat0_prefix_size (material->attr2);

  for (guint i = 0; i < material->n_phases; i++)
    {
      lint_phase (&material->phases[i], i, entry, entry_name,
                  off + MAT0_PARAM_COUNT, out);
      off += MAT0_PHASE_SIZE;
    }

  for (guint b = 0; b < material->n_blocks; b++)
    {
      const Mat0Block *block = &material->blocks[b];
      gsize block_offset = off;
      Mat0Diagnostic *diag;

      off += MAT0_BLOCK_HEADER_SIZE;

      if (block->n_keys == 0)
        {
          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_BLOCK_NO_KEYS,
                                 entry, entry_name, block_offset + 4,
                                 g_strdup_printf (_("expected at least one key "
                                                    "in anim block %u, found 0"),
                                                  b));
          diag->block = (gint) b;
          g_ptr_array_add (out, diag);
          continue;
        }

      for (guint k = 0; k < block->n_keys; k++)
        {
          if (block->keys[k].k0 >= material->n_phases)
            {
              diag = diagnostic_new (MAT0_SEVERITY_LINT,
                                     MAT0_LINT_KEY_PHASE_RANGE,
                                     entry, entry_name,
                                     off + (gsize) k * MAT0_KEY_SIZE,
                                     g_strdup_printf (_("expected a phase index "
                                                        "below phaseCount %u in "
                                                        "key %u of anim block "
                                                        "%u, found %u (the game "
                                                        "would read past the "
                                                        "phase table)"),
                                                      material->n_phases, k,
                                                      b, block->keys[k].k0));
              diag->block = (gint) b;
              diag->key = (gint) k;
              g_ptr_array_add (out, diag);
            }
        }

      if (mat0_block_cycle (block) == 0)
        {
          /* the first key's duration */
          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_CYCLE,
                                 entry, entry_name, off + 2,
                                 g_strdup_printf (_("expected a non-zero total "
                                                    "duration in anim block %u, "
                                                    "found %u keys all with "
                                                    "duration 0 (a zero-length "
                                                    "cycle)"),
                                                  b, block->n_keys));
          diag->block = (gint) b;
          g_ptr_array_add (out, diag);
        }

      off += (gsize) block->n_keys * MAT0_KEY_SIZE;
    }
}

static gboolean
name_is_default (const NresEntry *entry)
{
  return cp1251_name_compare (entry->name, "DEFAULT") == 0;
}

static gsize
directory_field (const NresArchive *archive,
                 guint              index,
                 gsize              field)
{
  return (gsize) archive->directory_offset +
         (gsize) index * NRES_ENTRY_SIZE + field;
}

static void
lint_archive (const NresArchive  *archive,
              char              **names,
              GPtrArray          *out)
{
  gboolean has_mat0 = FALSE;
  gboolean has_default = FALSE;
  Mat0Diagnostic *diag;

  for (guint i = 0; i < archive->n_entries; i++)
    {
      if (archive->entries[i].type_id == NRES_TYPE_MAT0)
        has_mat0 = TRUE;
      if (name_is_default (&archive->entries[i]))
        has_default = TRUE;
    }

  if (has_mat0 && !has_default)
    {
      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_NO_DEFAULT,
                             -1, "(archive)", archive->directory_offset,
                             g_strdup (_("expected an entry named DEFAULT (the "
                                         "engine's fallback for a missing "
                                         "material), found none")));
      g_ptr_array_add (out, diag);
    }

  /* Duplicate names, reported on the later entry. Quadratic, but only in
   * the number of entries of one file and without allocation. */
  for (guint i = 1; i < archive->n_entries; i++)
    {
      for (guint j = 0; j < i; j++)
        {
          if (cp1251_name_compare (archive->entries[i].name,
                                   archive->entries[j].name) != 0)
            continue;

          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_DUPLICATE_NAME,
                                 (gint) i, names[i],
                                 directory_field (archive, i, DIR_NAME_OFFSET),
                                 g_strdup_printf (_("expected a unique name "
                                                    "(names compare ignoring "
                                                    "case), found the name of "
                                                    "entry %u \"%s\" again"),
                                                  j, names[j]));
          g_ptr_array_add (out, diag);
          break;
        }
    }

  if (!archive->sort_index_valid || !archive->sort_index_canonical)
    {
      g_autofree guint32 *canonical = g_new0 (guint32, archive->n_entries + 1);
      g_autofree guint8 *seen = g_new0 (guint8, archive->n_entries + 1);
      guint bad = 0;
      char *message = NULL;

      nres_canonical_sort_index (archive->entries, archive->n_entries,
                                 canonical);

      if (!archive->sort_index_valid)
        {
          /* the first entry whose value is out of range or repeated */
          for (bad = 0; bad < archive->n_entries; bad++)
            {
              guint32 v = archive->entries[bad].sort_index;

              if (v >= archive->n_entries || seen[v])
                break;
              seen[v] = 1;
            }
          if (bad == archive->n_entries)
            bad = 0;

          {
            guint32 v = archive->entries[bad].sort_index;

            if (v >= archive->n_entries)
              message = g_strdup_printf (_("expected a sort_index below the "
                                           "entry count %u, found %u (the table is "
                                           "invalid: name lookup falls back to "
                                           "a linear scan)"),
                                         archive->n_entries, v);
            else
              message = g_strdup_printf (_("expected each sort_index value "
                                           "once, found %u again (the table is "
                                           "invalid: name lookup falls back to "
                                           "a linear scan)"),
                                         v);
          }
        }
      else
        {
          for (bad = 0; bad < archive->n_entries; bad++)
            if (archive->entries[bad].sort_index != canonical[bad])
              break;
          if (bad == archive->n_entries)
            bad = 0;

          message = g_strdup_printf (_("expected sort_index %u (the "
                                       "entries in name order), found %u "
                                       "(the table is not canonical: the "
                                       "binary search by name can miss "
                                       "entries)"),
                                     canonical[bad],
                                     archive->entries[bad].sort_index);
        }

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_SORT_INDEX,
                             archive->n_entries > 0 ? (gint) bad : -1,
                             archive->n_entries > 0 ? names[bad] : "(archive)",
                             directory_field (archive, bad,
                                              DIR_SORT_INDEX_OFFSET),
                             message);
      g_ptr_array_add (out, diag);
    }

  for (guint i = 0; i < archive->n_entries; i++)
    {
      guint32 data_offset = archive->entries[i].data_offset;

      if (data_offset % 8 == 0)
        continue;

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_UNALIGNED_PAYLOAD,
                             (gint) i, names[i],
                             directory_field (archive, i,
                                              DIR_DATA_OFFSET_OFFSET),
                             g_strdup_printf (_("expected data_offset to be a "
                                                "multiple of 8 (as in retail "
                                                "archives), found %u"),
                                              data_offset));
      g_ptr_array_add (out, diag);
    }
}

GPtrArray *
mat0_validate_archive (const NresArchive *archive)
{
  g_autoptr(GPtrArray) out = NULL;
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (archive != NULL, NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);
  names = g_new0 (char *, archive->n_entries + 1);

  for (guint i = 0; i < archive->n_entries; i++)
    names[i] = cp1251_to_utf8 ((const guint8 *) archive->entries[i].name,
                               NRES_NAME_SIZE);

  for (guint i = 0; i < archive->n_entries; i++)
    {
      const NresEntry *entry = &archive->entries[i];
      g_autoptr(Mat0Material) material = NULL;
      g_autoptr(GError) error = NULL;
      const guint8 *data;
      gsize size = 0;
      gsize error_offset = 0;

      if (entry->type_id != NRES_TYPE_MAT0)
        continue;

      data = nres_archive_payload (archive, i, &size);
      material = mat0_decode_full (data, size, entry->attr2, names[i],
                                   entry->data_offset, &error_offset, &error);
      if (material == NULL)
        {
          Mat0Diagnostic *diag;

          diag = diagnostic_new (MAT0_SEVERITY_ERROR, MAT0_CHECK_DECODE_ERROR,
                                 (gint) i, names[i], error_offset,
                                 g_strdup (error->message));
          g_ptr_array_add (out, diag);
          continue;
        }

      mat0_lint_material (material, (gint) i, names[i], entry->data_offset,
                          out);
    }

  lint_archive (archive, names, out);

  return g_steal_pointer (&out);
}
