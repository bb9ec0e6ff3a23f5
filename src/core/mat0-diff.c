/* mat0-diff.c - what differs between two materials or two libraries */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-diff.h"
#include "mat0-fields.h"

static void
add (GArray       *out,
     Mat0DiffKind  kind,
     Mat0DiffSide  side,
     guint         phase,
     guint         block,
     guint         key,
     guint         index)
{
  Mat0DiffField field = { kind, side, phase, block, key, index };

  g_array_append_val (out, field);
}

GArray *
mat0_diff_fields_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (Mat0DiffField));
}

static void
diff_phases (const Mat0Material *a,
             const Mat0Material *b,
             GArray             *out)
{
  guint n = MAX (a->n_phases, b->n_phases);

  for (guint i = 0; i < n; i++)
    {
      const Mat0Phase *pa, *pb;

      if (i >= a->n_phases || i >= b->n_phases)
        {
          add (out, MAT0_DIFF_PHASE, i < a->n_phases ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
               i, 0, 0, 0);
          continue;
        }
      pa = &a->phases[i];
      pb = &b->phases[i];
      for (guint p = 0; p < MAT0_PARAM_COUNT; p++)
        if (pa->p[p] != pb->p[p])
          add (out, MAT0_DIFF_PARAM, MAT0_DIFF_BOTH, i, 0, 0, p);
      if (memcmp (pa->texture, pb->texture, MAT0_TEXTURE_SIZE) != 0)
        add (out, MAT0_DIFF_TEXTURE, MAT0_DIFF_BOTH, i, 0, 0, 0);
    }
}

static void
diff_blocks (const Mat0Material *a,
             const Mat0Material *b,
             GArray             *out)
{
  guint n = MAX (a->n_blocks, b->n_blocks);

  for (guint j = 0; j < n; j++)
    {
      const Mat0Block *ba, *bb;
      guint n_keys;

      if (j >= a->n_blocks || j >= b->n_blocks)
        {
          add (out, MAT0_DIFF_BLOCK, j < a->n_blocks ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
               0, j, 0, 0);
          continue;
        }
      ba = &a->blocks[j];
      bb = &b->blocks[j];
      if (mat0_block_mode (ba) != mat0_block_mode (bb))
        add (out, MAT0_DIFF_MODE, MAT0_DIFF_BOTH, 0, j, 0, 0);
      if (mat0_block_interp_mask (ba) != mat0_block_interp_mask (bb))
        add (out, MAT0_DIFF_INTERP, MAT0_DIFF_BOTH, 0, j, 0, 0);

      n_keys = MAX (ba->n_keys, bb->n_keys);
      for (guint k = 0; k < n_keys; k++)
        {
          if (k >= ba->n_keys || k >= bb->n_keys)
            {
              add (out, MAT0_DIFF_KEY, k < ba->n_keys ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
                   0, j, k, 0);
              continue;
            }
          if (ba->keys[k].k0 != bb->keys[k].k0)
            add (out, MAT0_DIFF_K0, MAT0_DIFF_BOTH, 0, j, k, 0);
          if (ba->keys[k].k1 != bb->keys[k].k1)
            add (out, MAT0_DIFF_K1, MAT0_DIFF_BOTH, 0, j, k, 0);
          if (ba->keys[k].k2 != bb->keys[k].k2)
            add (out, MAT0_DIFF_K2, MAT0_DIFF_BOTH, 0, j, k, 0);
        }
    }
}

/* The metadata, phases and blocks of two decoded materials. */
static void
diff_content (const Mat0Material *a,
              const Mat0Material *b,
              GArray             *out)
{
  if (a->meta_a != b->meta_a)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_A);
  if (a->meta_b != b->meta_b)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_B);
  if (a->meta_c != b->meta_c)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_C);
  if (a->meta_d != b->meta_d)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_D);
  diff_phases (a, b, out);
  diff_blocks (a, b, out);
}

gboolean
mat0_diff_materials (const Mat0Material *a,
                     guint32             attr1_a,
                     guint32             attr3_a,
                     const Mat0Material *b,
                     guint32             attr1_b,
                     guint32             attr3_b,
                     GArray             *out)
{
  guint before;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  before = out->len;
  if (attr1_a != attr1_b)
    add (out, MAT0_DIFF_ATTR1, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  if (a->attr2 != b->attr2)
    add (out, MAT0_DIFF_ATTR2, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  if (attr3_a != attr3_b)
    add (out, MAT0_DIFF_ATTR3, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  diff_content (a, b, out);
  return out->len > before;
}

gboolean
mat0_diff_entries (const Mat0DiffEntry *a,
                   const Mat0DiffEntry *b,
                   GArray              *out)
{
  guint before;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  before = out->len;
  if (a->type_id != b->type_id)
    add (out, MAT0_DIFF_TYPE, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  if (a->attr1 != b->attr1)
    add (out, MAT0_DIFF_ATTR1, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  if (a->attr2 != b->attr2)
    add (out, MAT0_DIFF_ATTR2, MAT0_DIFF_BOTH, 0, 0, 0, 0);
  if (a->attr3 != b->attr3)
    add (out, MAT0_DIFF_ATTR3, MAT0_DIFF_BOTH, 0, 0, 0, 0);

  if (a->type_id == b->type_id && a->material != NULL && b->material != NULL)
    diff_content (a->material, b->material, out);
  else if (a->size != b->size ||
           (a->size > 0 && (a->payload == NULL || b->payload == NULL ||
                            memcmp (a->payload, b->payload, a->size) != 0)))
    add (out, MAT0_DIFF_PAYLOAD, MAT0_DIFF_BOTH, 0, 0, 0, 0);

  return out->len > before;
}

char *
mat0_diff_field_dup_path (const Mat0DiffField *field)
{
  static const char *const k_names[] = { "k0", "k1", "k2" };

  g_return_val_if_fail (field != NULL, NULL);

  switch (field->kind)
    {
    case MAT0_DIFF_TYPE: return g_strdup ("type");
    case MAT0_DIFF_ATTR1: return g_strdup ("attr1");
    case MAT0_DIFF_ATTR2: return g_strdup ("attr2");
    case MAT0_DIFF_ATTR3: return g_strdup ("attr3");
    case MAT0_DIFF_PAYLOAD: return g_strdup ("payload");
    case MAT0_DIFF_META:
      return g_strdup_printf ("meta.%s", mat0_fields_meta ((Mat0MetaId) MIN (field->index, MAT0_META_D))->key);
    case MAT0_DIFF_PHASE: return g_strdup_printf ("phase[%u]", field->phase);
    case MAT0_DIFF_PARAM: return g_strdup_printf ("phase[%u].p[%u]", field->phase, field->index);
    case MAT0_DIFF_TEXTURE: return g_strdup_printf ("phase[%u].texture", field->phase);
    case MAT0_DIFF_BLOCK: return g_strdup_printf ("block[%u]", field->block);
    case MAT0_DIFF_MODE: return g_strdup_printf ("block[%u].mode", field->block);
    case MAT0_DIFF_INTERP: return g_strdup_printf ("block[%u].interp", field->block);
    case MAT0_DIFF_KEY: return g_strdup_printf ("block[%u].key[%u]", field->block, field->key);
    case MAT0_DIFF_K0:
    case MAT0_DIFF_K1:
    case MAT0_DIFF_K2:
      return g_strdup_printf ("block[%u].key[%u].%s", field->block, field->key,
                              k_names[field->kind - MAT0_DIFF_K0]);
    default:
      g_return_val_if_reached (g_strdup ("?"));
    }
}

/* ---- the summary for people ------------------------------------------- */

static void
append_part (GString    *text,
             const char *part)
{
  if (text->len > 0)
    g_string_append (text, _(", "));
  g_string_append (text, part);
}

/* Adds @label (translated already) to @parts unless it is there. */
static void
add_label (GPtrArray  *parts,
           const char *label)
{
  g_autofree char *lower = g_utf8_strdown (label, -1);

  for (guint i = 0; i < parts->len; i++)
    if (g_str_equal (parts->pdata[i], lower))
      return;
  g_ptr_array_add (parts, g_steal_pointer (&lower));
}

static char *
join_parts (GPtrArray *parts)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < parts->len; i++)
    append_part (text, parts->pdata[i]);
  return g_string_free (text, FALSE);
}

/* What part of a phase a field is: its colour group, the power, the cell
 * or the texture. Returns: (transfer none): translated. */
static const char *
phase_part_label (const Mat0DiffField *field)
{
  const Mat0ParamField *param;

  if (field->kind == MAT0_DIFF_TEXTURE)
    return _(mat0_fields_texture_label ());
  param = mat0_fields_param (MIN (field->index, MAT0_PARAM_COUNT - 1u));
  if (param->group != MAT0_GROUP_NONE)
    return _(mat0_fields_group (param->group)->label);
  return _(param->label);
}

char *
mat0_diff_dup_summary (const Mat0DiffField *fields,
                       guint                n_fields)
{
  g_autoptr(GPtrArray) meta = g_ptr_array_new_with_free_func (g_free);
  GString *text = g_string_new (NULL);
  gboolean type = FALSE, attr1 = FALSE, attr2 = FALSE, attr3 = FALSE, payload = FALSE;
  guint i;

  g_return_val_if_fail (fields != NULL || n_fields == 0, NULL);

  /* the entry's own fields first, whatever their order */
  for (i = 0; i < n_fields; i++)
    switch (fields[i].kind)
      {
      case MAT0_DIFF_TYPE: type = TRUE; break;
      case MAT0_DIFF_ATTR1: attr1 = TRUE; break;
      case MAT0_DIFF_ATTR2: attr2 = TRUE; break;
      case MAT0_DIFF_ATTR3: attr3 = TRUE; break;
      case MAT0_DIFF_PAYLOAD: payload = TRUE; break;
      case MAT0_DIFF_META:
        add_label (meta, _(mat0_fields_meta ((Mat0MetaId) MIN (fields[i].index, MAT0_META_D))->label));
        break;
      default: break;
      }
  if (type)
    /* Translators: a summary item: the two entries have other types */
    append_part (text, _("entry type"));
  if (attr1)
    /* Translators: a summary item, the name of the flags field */
    append_part (text, _("attr1"));
  if (attr2)
    /* Translators: a summary item: the payload version (attr2) */
    append_part (text, _("version"));
  if (attr3)
    append_part (text, _("attr3"));
  if (meta->len > 0)
    {
      g_autofree char *list = join_parts (meta);
      /* Translators: a summary item: the metadata fields that differ,
       * "metadata (ground class, speed factor)" */
      g_autofree char *part = g_strdup_printf (_("metadata (%s)"), list);

      append_part (text, part);
    }
  if (payload)
    /* Translators: a summary item: entries compared byte by byte */
    append_part (text, _("payload bytes"));

  /* the phases, then the blocks, each once with its parts */
  i = 0;
  while (i < n_fields)
    {
      const Mat0DiffField *field = &fields[i];
      g_autofree char *part = NULL;

      if (field->kind == MAT0_DIFF_PHASE)
        {
          part = field->side == MAT0_DIFF_ONLY_B
                 /* Translators: a summary item: B has a phase A has not */
                 ? g_strdup_printf (_("phase %u added"), field->phase)
                 /* Translators: a summary item: A has a phase B has not */
                 : g_strdup_printf (_("phase %u removed"), field->phase);
          i++;
        }
      else if (field->kind == MAT0_DIFF_PARAM || field->kind == MAT0_DIFF_TEXTURE)
        {
          g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *list = NULL;
          guint phase = field->phase;

          for (; i < n_fields && fields[i].phase == phase &&
                 (fields[i].kind == MAT0_DIFF_PARAM || fields[i].kind == MAT0_DIFF_TEXTURE); i++)
            add_label (parts, phase_part_label (&fields[i]));
          list = join_parts (parts);
          /* Translators: a summary item: what differs in a phase,
           * "phase 2 (self-light, texture)" */
          part = g_strdup_printf (_("phase %u (%s)"), phase, list);
        }
      else if (field->kind == MAT0_DIFF_BLOCK)
        {
          part = field->side == MAT0_DIFF_ONLY_B
                 /* Translators: a summary item: B has an animation block A has not */
                 ? g_strdup_printf (_("block %u added"), field->block)
                 : g_strdup_printf (_("block %u removed"), field->block);
          i++;
        }
      else if (field->kind >= MAT0_DIFF_MODE && field->kind <= MAT0_DIFF_K2)
        {
          g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *list = NULL;
          guint block = field->block;

          for (; i < n_fields && fields[i].block == block &&
                 fields[i].kind >= MAT0_DIFF_MODE && fields[i].kind <= MAT0_DIFF_K2; i++)
            {
              if (fields[i].kind == MAT0_DIFF_MODE)
                /* Translators: a summary item: the animation mode differs */
                add_label (parts, _("mode"));
              else if (fields[i].kind == MAT0_DIFF_INTERP)
                /* Translators: a summary item: the interpolation mask differs */
                add_label (parts, _("interpolation"));
              else
                /* Translators: a summary item: keys differ (their phase,
                 * time or k2, or how many there are) */
                add_label (parts, _("keys"));
            }
          list = join_parts (parts);
          /* Translators: a summary item: what differs in an animation
           * block, "block 0 (mode, keys)" */
          part = g_strdup_printf (_("block %u (%s)"), block, list);
        }
      else
        {
          i++;
          continue;
        }
      append_part (text, part);
    }

  return g_string_free (text, FALSE);
}

/* ---- libraries ---------------------------------------------------------- */

static void
item_free (gpointer data)
{
  Mat0DiffItem *item = data;

  g_clear_pointer (&item->fields, g_array_unref);
  g_free (item);
}

static Mat0DiffItem *
item_new (Mat0DiffStatus status,
          gint           index_a,
          gint           index_b)
{
  Mat0DiffItem *item = g_new0 (Mat0DiffItem, 1);

  item->status = status;
  item->index_a = index_a;
  item->index_b = index_b;
  item->fields = mat0_diff_fields_new ();
  return item;
}

Mat0LibraryDiff *
mat0_diff_libraries (const Mat0DiffEntry *a,
                     guint                n_a,
                     const Mat0DiffEntry *b,
                     guint                n_b)
{
  g_autoptr(GHashTable) by_name = NULL;
  g_autofree gboolean *matched = NULL;
  Mat0LibraryDiff *diff;

  g_return_val_if_fail (a != NULL || n_a == 0, NULL);
  g_return_val_if_fail (b != NULL || n_b == 0, NULL);

  diff = g_new0 (Mat0LibraryDiff, 1);
  diff->items = g_ptr_array_new_with_free_func (item_free);

  /* B's entries by folded name, each name's occurrences in index order */
  by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) g_queue_free);
  for (guint i = 0; i < n_b; i++)
    {
      char *key = g_ascii_strdown (b[i].name != NULL ? b[i].name : "", -1);
      GQueue *queue = g_hash_table_lookup (by_name, key);

      if (queue == NULL)
        {
          queue = g_queue_new ();
          g_hash_table_insert (by_name, key, queue);
        }
      else
        g_free (key);
      g_queue_push_tail (queue, GUINT_TO_POINTER (i));
    }

  matched = g_new0 (gboolean, MAX (n_b, 1));
  for (guint i = 0; i < n_a; i++)
    {
      g_autofree char *key = g_ascii_strdown (a[i].name != NULL ? a[i].name : "", -1);
      GQueue *queue = g_hash_table_lookup (by_name, key);
      Mat0DiffItem *item;
      guint j;

      if (queue == NULL || g_queue_is_empty (queue))
        {
          g_ptr_array_add (diff->items, item_new (MAT0_DIFF_REMOVED, (gint) i, -1));
          diff->n_removed++;
          continue;
        }
      j = GPOINTER_TO_UINT (g_queue_pop_head (queue));
      matched[j] = TRUE;
      item = item_new (MAT0_DIFF_SAME, (gint) i, (gint) j);
      if (mat0_diff_entries (&a[i], &b[j], item->fields))
        {
          item->status = MAT0_DIFF_CHANGED;
          diff->n_changed++;
        }
      else
        diff->n_same++;
      g_ptr_array_add (diff->items, item);
    }

  for (guint j = 0; j < n_b; j++)
    if (!matched[j])
      {
        g_ptr_array_add (diff->items, item_new (MAT0_DIFF_ADDED, -1, (gint) j));
        diff->n_added++;
      }

  return diff;
}

typedef struct {
  Mat0DiffEntry *entries;
  Mat0Material **materials;
  char         **names;
  guint          n;
} ArchiveEntries;

static void
archive_entries_init (ArchiveEntries    *out,
                      const NresArchive *archive)
{
  out->n = archive->n_entries;
  out->entries = g_new0 (Mat0DiffEntry, MAX (out->n, 1));
  out->materials = g_new0 (Mat0Material *, MAX (out->n, 1));
  out->names = g_new0 (char *, out->n + 1);

  for (guint i = 0; i < out->n; i++)
    {
      const NresEntry *e = &archive->entries[i];
      Mat0DiffEntry *entry = &out->entries[i];

      out->names[i] = cp1251_to_utf8 ((const guint8 *) e->name, NRES_NAME_SIZE);
      entry->name = out->names[i];
      entry->type_id = e->type_id;
      entry->attr1 = e->attr1;
      entry->attr2 = e->attr2;
      entry->attr3 = e->attr3;
      entry->payload = nres_archive_payload (archive, i, &entry->size);
      if (e->type_id == NRES_TYPE_MAT0)
        /* one that does not decode compares by its bytes */
        out->materials[i] = mat0_decode (entry->payload, entry->size, e->attr2,
                                         out->names[i], e->data_offset, NULL);
      entry->material = out->materials[i];
    }
}

static void
archive_entries_clear (ArchiveEntries *entries)
{
  for (guint i = 0; i < entries->n; i++)
    g_clear_pointer (&entries->materials[i], mat0_material_free);
  g_free (entries->materials);
  g_free (entries->entries);
  g_strfreev (entries->names);
}

Mat0LibraryDiff *
mat0_diff_archives (const NresArchive *a,
                    const NresArchive *b)
{
  ArchiveEntries ea, eb;
  Mat0LibraryDiff *diff;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  archive_entries_init (&ea, a);
  archive_entries_init (&eb, b);
  diff = mat0_diff_libraries (ea.entries, ea.n, eb.entries, eb.n);
  archive_entries_clear (&ea);
  archive_entries_clear (&eb);
  return diff;
}

gboolean
mat0_library_diff_is_equal (const Mat0LibraryDiff *diff)
{
  g_return_val_if_fail (diff != NULL, FALSE);

  return diff->n_changed == 0 && diff->n_added == 0 && diff->n_removed == 0;
}

void
mat0_library_diff_free (Mat0LibraryDiff *diff)
{
  if (diff == NULL)
    return;
  g_clear_pointer (&diff->items, g_ptr_array_unref);
  g_free (diff);
}
