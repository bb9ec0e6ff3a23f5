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

/* Where lints of one material go. The entry name is converted from CP1251
 * only when a diagnostic needs it: most materials have none, and a
 * 65,536-entry library should not pay for 65,536 conversions. */
typedef struct {
  GPtrArray  *out;
  gint        entry;
  const char *fixed_name;      /* a name given by the caller, or NULL */
  const char *raw_name;        /* the NRes name field, converted lazily */
  char       *converted;
} LintSink;

static const char *
sink_name (LintSink *sink)
{
  if (sink->fixed_name != NULL)
    return sink->fixed_name;
  if (sink->converted == NULL)
    sink->converted = cp1251_to_utf8 ((const guint8 *) sink->raw_name, NRES_NAME_SIZE);
  return sink->converted;
}

/* A texture name for a message: UTF-8, at most the 16 bytes of the field. */
static char *
texture_for_message (const guint8 *texture)
{
  return cp1251_to_utf8 (texture, MAT0_TEXTURE_SIZE);
}

/* The position of the first byte @b in a 16-byte field, or 16: eight bytes
 * at a time (the lowest flagged byte of the zero-byte test is exact). */
static inline gsize
first_byte (const guint8 *field,
            guint8        b)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);

  for (guint half = 0; half < 2; half++)
    {
      guint64 x;
      guint64 found;

      memcpy (&x, field + 8 * half, 8);
      x = GUINT64_FROM_LE (x) ^ (ones * b);
      found = (x - ones) & ~x & highs;
      if (found != 0)
        return 8 * half + (gsize) (__builtin_ctzll (found) / 8);
    }
  return MAT0_TEXTURE_SIZE;
}

static void
lint_phase (const guint8 *texture,
            guint         index,
            LintSink     *sink,
            gsize         texture_offset)
{
  gsize len = first_byte (texture, 0);
  gsize dot = first_byte (texture, '.');
  Mat0Diagnostic *diag;
  gint palette;

  if (len == 0)
    return;   /* deliberately untextured */

  if (len == MAT0_TEXTURE_SIZE)
    {
      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_NUL,
                             sink->entry, sink_name (sink), texture_offset,
                             g_strdup_printf (_("expected a NUL within the %d "
                                                "bytes of the texture name of "
                                                "phase %u, found none"),
                                              MAT0_TEXTURE_SIZE, index));
      diag->phase = (gint) index;
      g_ptr_array_add (sink->out, diag);
    }

  if (dot >= len)
    {
      g_autofree char *name = texture_for_message (texture);

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
                             sink->entry, sink_name (sink), texture_offset,
                             g_strdup_printf (_("expected a '.' in the texture "
                                                "name \"%s\" of phase %u, found "
                                                "none (the game logs \"Bad "
                                                "texture name.\" and uses no "
                                                "texture)"),
                                              name, index));
      diag->phase = (gint) index;
      g_ptr_array_add (sink->out, diag);
      return;
    }

  palette = mat0_palette_index_at (texture, len, dot);
  if (palette >= PALETTE_BANK_SIZE)
    {
      g_autofree char *name = texture_for_message (texture);

      diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_PALETTE_INDEX,
                             sink->entry, sink_name (sink), texture_offset,
                             g_strdup_printf (_("expected a palette index below "
                                                "%d for the texture name \"%s\" "
                                                "of phase %u, found %d (the "
                                                "game reads past its palette "
                                                "bank)"),
                                              PALETTE_BANK_SIZE, name, index,
                                              palette));
      diag->phase = (gint) index;
      g_ptr_array_add (sink->out, diag);
    }
}

static guint16
read_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

/* Lints of a payload that mat0_check accepted, read from its bytes: the
 * validation of a whole library allocates nothing per material. */
static void
lint_payload (const guint8 *data,
              guint32       attr2,
              LintSink     *sink,
              gsize         base_offset)
{
  guint n_phases = read_u16 (data);
  guint n_blocks = read_u16 (data + 2);
  gsize off = 4 + mat0_prefix_size (attr2);

  for (guint i = 0; i < n_phases; i++)
    {
      guint ambient_alpha = data[off + MAT0_AMBIENT_ALPHA_BYTE];

      if (G_UNLIKELY (ambient_alpha > 100))
        {
          Mat0Diagnostic *diag;

          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_AMBIENT_ALPHA,
                                 sink->entry, sink_name (sink),
                                 base_offset + off + MAT0_AMBIENT_ALPHA_BYTE,
                                 g_strdup_printf (_("expected an ambient alpha "
                                                    "(p3, opacity in per cent) "
                                                    "of at most 100 in phase "
                                                    "%u, found %u (over 100 %% "
                                                    "opacity)"),
                                                  i, ambient_alpha));
          diag->phase = (gint) i;
          g_ptr_array_add (sink->out, diag);
        }
      lint_phase (data + off + MAT0_PARAM_COUNT, i, sink,
                  base_offset + off + MAT0_PARAM_COUNT);
      off += MAT0_PHASE_SIZE;
    }

  for (guint b = 0; b < n_blocks; b++)
    {
      gsize block_offset = off;
      guint n_keys = read_u16 (data + off + 4);
      guint period;
      guint previous = 0;
      Mat0Diagnostic *diag;

      off += MAT0_BLOCK_HEADER_SIZE;

      if (n_keys == 0)
        {
          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_BLOCK_NO_KEYS,
                                 sink->entry, sink_name (sink),
                                 base_offset + block_offset + 4,
                                 g_strdup_printf (_("expected at least one key "
                                                    "in anim block %u, found 0"),
                                                  b));
          diag->block = (gint) b;
          g_ptr_array_add (sink->out, diag);
          continue;
        }

      period = read_u16 (data + off + (gsize) (n_keys - 1) * MAT0_KEY_SIZE + 2);

      for (guint k = 0; k < n_keys; k++)
        {
          const guint8 *key = data + off + (gsize) k * MAT0_KEY_SIZE;
          gsize key_offset = base_offset + off + (gsize) k * MAT0_KEY_SIZE;
          guint k0 = read_u16 (key);
          guint time = read_u16 (key + 2);

          if (k0 >= n_phases)
            {
              diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
                                     sink->entry, sink_name (sink), key_offset,
                                     g_strdup_printf (_("expected a phase index "
                                                        "below phaseCount %u in "
                                                        "key %u of anim block "
                                                        "%u, found %u (the game "
                                                        "would read past the "
                                                        "phase table)"),
                                                      n_phases, k, b, k0));
              diag->block = (gint) b;
              diag->key = (gint) k;
              g_ptr_array_add (sink->out, diag);
            }

          /* An empty interval: the game never shows that blend. With a
           * period of 0 the track never animates; that lint says it. */
          if (period != 0 && time <= previous)
            {
              diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_KEY_TIME_ORDER,
                                     sink->entry, sink_name (sink), key_offset + 2,
                                     g_strdup_printf (_("expected the time of "
                                                        "key %u of anim block "
                                                        "%u to be greater than "
                                                        "%u ms (the previous "
                                                        "key's time), found %u "
                                                        "ms (an empty interval: "
                                                        "the game never shows "
                                                        "this blend)"),
                                                      k, b, previous, time));
              diag->block = (gint) b;
              diag->key = (gint) k;
              g_ptr_array_add (sink->out, diag);
            }
          previous = time;
        }

      if (period == 0)
        {
          /* the last key's time */
          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_PERIOD,
                                 sink->entry, sink_name (sink),
                                 base_offset + off + (gsize) (n_keys - 1) * MAT0_KEY_SIZE + 2,
                                 g_strdup_printf (_("expected a non-zero time "
                                                    "for the last key of anim "
                                                    "block %u (the period), "
                                                    "found 0 ms (the material "
                                                    "never animates)"),
                                                  b));
          diag->block = (gint) b;
          diag->key = (gint) n_keys - 1;
          g_ptr_array_add (sink->out, diag);
        }

      off += (gsize) n_keys * MAT0_KEY_SIZE;
    }
}

void
mat0_lint_material (const Mat0Material *material,
                    gint                entry,
                    const char         *entry_name,
                    gsize               base_offset,
                    GPtrArray          *out)
{
  LintSink sink = { out, entry, entry_name != NULL ? entry_name : "(material)", NULL, NULL };

  g_autoptr(GBytes) payload = NULL;

  g_return_if_fail (material != NULL);
  g_return_if_fail (out != NULL);

  /* One implementation of the lints: the one that reads bytes. */
  payload = mat0_encode (material);
  lint_payload (g_bytes_get_data (payload, NULL), material->attr2, &sink, base_offset);
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

/* names[i], converted on first use */
static const char *
entry_name (const NresArchive *archive,
            char             **names,
            guint              i)
{
  if (names[i] == NULL)
    names[i] = cp1251_to_utf8 ((const guint8 *) archive->entries[i].name, NRES_NAME_SIZE);
  return names[i];
}

static void
lint_archive (const NresArchive  *archive,
              char              **names,
              GPtrArray          *out)
{
  gboolean has_mat0 = FALSE;
  gboolean has_default = FALSE;
  Mat0Diagnostic *diag;

  /* With a canonical table the binary search finds any entry there is;
   * otherwise look at every name. */
  if (archive->sort_index_canonical)
    has_default = nres_archive_find (archive, "DEFAULT") >= 0;
  for (guint i = 0; i < archive->n_entries; i++)
    {
      if (archive->entries[i].type_id == NRES_TYPE_MAT0)
        has_mat0 = TRUE;
      if (!archive->sort_index_canonical && name_is_default (&archive->entries[i]))
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

  /* Duplicate names, reported on the later entry: walk the entries in
   * name order (ties by index), so equal names are neighbours. A canonical
   * stored table is that order already; otherwise it is computed. */
  if (archive->n_entries > 1 && !archive->names_distinct)
    {
      g_autofree guint32 *order = NULL;
      guint first;

      if (!archive->sort_index_canonical)
        {
          order = g_new (guint32, archive->n_entries);
          nres_canonical_sort_index (archive->entries, archive->n_entries, order);
        }
      first = order != NULL ? order[0] : archive->entries[0].sort_index;

      for (guint n = 1; n < archive->n_entries; n++)
        {
          guint i = order != NULL ? order[n] : archive->entries[n].sort_index;

          /* @first starts the run of equal names and has the lowest index */
          if (cp1251_name_compare (archive->entries[first].name,
                                   archive->entries[i].name) != 0)
            {
              first = i;
              continue;
            }

          diag = diagnostic_new (MAT0_SEVERITY_LINT, MAT0_LINT_DUPLICATE_NAME,
                                 (gint) i, entry_name (archive, names, i),
                                 directory_field (archive, i, DIR_NAME_OFFSET),
                                 g_strdup_printf (_("expected a unique name "
                                                    "(names compare ignoring "
                                                    "case), found the name of "
                                                    "entry %u \"%s\" again"),
                                                  first, entry_name (archive, names, first)));
          g_ptr_array_add (out, diag);
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
                             archive->n_entries > 0 ? entry_name (archive, names, bad) : "(archive)",
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
                             (gint) i, entry_name (archive, names, i),
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
  char **names = NULL;   /* converted on demand: NULL holes, no GStrv */

  g_return_val_if_fail (archive != NULL, NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);
  names = g_new0 (char *, archive->n_entries + 1);

  for (guint i = 0; i < archive->n_entries; i++)
    {
      const NresEntry *entry = &archive->entries[i];
      g_autoptr(GError) error = NULL;
      LintSink sink = { out, (gint) i, NULL, entry->name, NULL };
      const guint8 *data;
      gsize size = 0;
      gsize error_offset = 0;

      if (entry->type_id != NRES_TYPE_MAT0)
        continue;

      data = nres_archive_payload (archive, i, &size);
      if (!mat0_check (data, size, entry->attr2, NULL, entry->data_offset, NULL, NULL))
        {
          Mat0Diagnostic *diag;

          /* Check again, now with the name for the message: errors are
           * rare, names are converted only for them. */
          mat0_check (data, size, entry->attr2, entry_name (archive, names, i),
                      entry->data_offset, &error_offset, &error);
          diag = diagnostic_new (MAT0_SEVERITY_ERROR, MAT0_CHECK_DECODE_ERROR,
                                 (gint) i, entry_name (archive, names, i), error_offset,
                                 g_strdup (error->message));
          g_ptr_array_add (out, diag);
          continue;
        }

      lint_payload (data, entry->attr2, &sink, entry->data_offset);
      g_free (sink.converted);
    }

  lint_archive (archive, names, out);

  for (guint i = 0; i < archive->n_entries; i++)
    g_free (names[i]);
  g_free (names);

  return g_steal_pointer (&out);
}

const char *
mat0_check_name (Mat0Check check)
{
  static const char *const names[] = {
    [MAT0_CHECK_DECODE_ERROR] = "decode-error",
    [MAT0_LINT_TEXTURE_NO_NUL] = "texture-no-nul",
    [MAT0_LINT_TEXTURE_NO_DOT] = "texture-no-dot",
    [MAT0_LINT_PALETTE_INDEX] = "palette-index",
    [MAT0_LINT_KEY_PHASE_RANGE] = "key-phase-range",
    [MAT0_LINT_BLOCK_NO_KEYS] = "block-no-keys",
    [MAT0_LINT_ZERO_PERIOD] = "zero-period",
    [MAT0_LINT_KEY_TIME_ORDER] = "key-time-order",
    [MAT0_LINT_AMBIENT_ALPHA] = "ambient-alpha",
    [MAT0_LINT_NO_DEFAULT] = "no-default",
    [MAT0_LINT_DUPLICATE_NAME] = "duplicate-name",
    [MAT0_LINT_SORT_INDEX] = "sort-index",
    [MAT0_LINT_UNALIGNED_PAYLOAD] = "unaligned-payload",
  };

  return (guint) check < G_N_ELEMENTS (names) && names[check] != NULL
         ? names[check] : "unknown";
}
