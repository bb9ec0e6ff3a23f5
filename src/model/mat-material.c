/* mat-material.c - one entry of a material library */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-validate.h"
#include "phase-eval.h"
#include "phase-light.h"

#include "mat-model-private.h"

struct _MatMaterial
{
  GObject      parent_instance;

  MatLibrary  *library;      /* not owned; %NULL when deleted */
  NresEntry    entry;        /* current directory fields */
  gint         source;       /* entry index in the base archive, -1: new */
  guint        generation;   /* of the base archive @source refers to */
  GBytes      *raw;          /* payload as loaded, or %NULL for new ones */

  char        *name;         /* UTF-8 cache of entry.name */
  gboolean     decoded;      /* decode attempted */
  char        *error;        /* decode error */

  guint8       meta_a;
  guint8       meta_b;
  guint32      meta_c;
  guint32      meta_d;
  GListStore  *phases;       /* MatPhase, after decode */
  GListStore  *blocks;       /* MatAnimBlock, after decode */

  /* summary, for notify */
  guint        n_phases;
  guint        n_blocks;
  gboolean     animated;
  gboolean     textured;

  /* the list's swatch: phase 0 as the game lights it, until a change */
  gboolean     swatch_valid;
  gboolean     has_swatch;
  guint8       swatch[4];

  /* the content as the core reads it, and its lints (entry -1, for
   * lint_name at lint_offset), until a change: a material of a million
   * keys is not walked object by object for every view that asks */
  Mat0Material *core;
  GPtrArray    *lints;
  char         *lint_name;
  gsize         lint_offset;
};

G_DEFINE_FINAL_TYPE (MatMaterial, mat_material, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_TYPE_ID,
  PROP_ATTR1,
  PROP_ATTR2,
  PROP_ATTR3,
  PROP_META_A,
  PROP_META_B,
  PROP_META_C,
  PROP_META_D,
  PROP_EDITABLE,
  PROP_ERROR,
  PROP_N_PHASES,
  PROP_N_BLOCKS,
  PROP_ANIMATED,
  PROP_TEXTURED,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gpointer
item_at (GListStore *store,
         guint       i)
{
  gpointer item = g_list_model_get_item (G_LIST_MODEL (store), i);

  g_object_unref (item);   /* the store keeps it */
  return item;
}

static guint
store_len (GListStore *store)
{
  return g_list_model_get_n_items (G_LIST_MODEL (store));
}

static void
compute_summary (MatMaterial *self,
                 guint       *n_phases,
                 guint       *n_blocks,
                 gboolean    *animated,
                 gboolean    *textured)
{
  *n_phases = store_len (self->phases);
  *n_blocks = store_len (self->blocks);
  *animated = FALSE;
  *textured = FALSE;

  for (guint i = 0; i < *n_blocks && !*animated; i++)
    *animated = mat_anim_block_get_n_keys (item_at (self->blocks, i)) >= 2;
  for (guint i = 0; i < *n_phases && !*textured; i++)
    *textured = mat_phase_get_textured (item_at (self->phases, i));
}

/* Returns: (transfer full): a deep copy of @core, every array allocated. */
static Mat0Material *
core_copy (const Mat0Material *core)
{
  Mat0Material *copy = g_new0 (Mat0Material, 1);

  *copy = *core;
  copy->phases = g_new0 (Mat0Phase, MAX (core->n_phases, 1));
  if (core->n_phases > 0)
    memcpy (copy->phases, core->phases, sizeof (Mat0Phase) * core->n_phases);
  copy->blocks = g_new0 (Mat0Block, MAX (core->n_blocks, 1));
  for (guint b = 0; b < core->n_blocks; b++)
    {
      const Mat0Block *from = &core->blocks[b];

      copy->blocks[b] = *from;
      copy->blocks[b].keys = from->n_keys > 0 ? g_memdup2 (from->keys, sizeof (Mat0Key) * from->n_keys)
                                              : g_new0 (Mat0Key, 1);
    }
  return copy;
}

static void
clear_caches (MatMaterial *self)
{
  g_clear_pointer (&self->core, mat0_material_free);
  g_clear_pointer (&self->lints, g_ptr_array_unref);
  g_clear_pointer (&self->lint_name, g_free);
}

static void
load_core (MatMaterial        *self,
           const Mat0Material *core)
{
  self->meta_a = core->meta_a;
  self->meta_b = core->meta_b;
  self->meta_c = core->meta_c;
  self->meta_d = core->meta_d;

  for (guint i = 0; i < core->n_phases; i++)
    {
      g_autoptr(MatPhase) phase = _mat_phase_new (&core->phases[i]);

      _mat_phase_attach (phase, self, i);
      g_list_store_append (self->phases, phase);
    }
  for (guint i = 0; i < core->n_blocks; i++)
    {
      g_autoptr(MatAnimBlock) block = _mat_anim_block_new (&core->blocks[i]);

      _mat_anim_block_attach (block, self, i);
      g_list_store_append (self->blocks, block);
    }

  compute_summary (self, &self->n_phases, &self->n_blocks,
                   &self->animated, &self->textured);
}

static void
ensure_decoded (MatMaterial *self)
{
  g_autoptr(Mat0Material) core = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;

  if (self->decoded)
    return;
  self->decoded = TRUE;
  /* Created here, not in init: a library of 65,536 entries opens without
   * 131,072 stores. */
  self->phases = g_list_store_new (MAT_TYPE_PHASE);
  self->blocks = g_list_store_new (MAT_TYPE_ANIM_BLOCK);

  if (self->entry.type_id != NRES_TYPE_MAT0 || self->raw == NULL)
    return;

  data = g_bytes_get_data (self->raw, &size);
  core = mat0_decode (data, size, self->entry.attr2, mat_material_get_name (self),
                      self->entry.data_offset, &error);
  if (core == NULL)
    {
      self->error = g_strdup (error->message);
      return;
    }

  load_core (self, core);
  /* what was decoded is the content: the first dup_core() copies it */
  core->attr2 = self->entry.attr2;
  self->core = g_steal_pointer (&core);
}

MatMaterial *
_mat_material_new_from_entry (const NresEntry *entry,
                              gint             source,
                              guint            generation,
                              GBytes          *payload)
{
  MatMaterial *self = g_object_new (MAT_TYPE_MATERIAL, NULL);

  self->entry = *entry;
  self->source = source;
  self->generation = generation;
  self->raw = payload != NULL ? g_bytes_ref (payload) : NULL;

  return self;
}

MatMaterial *
_mat_material_new_from_core (const NresEntry    *entry,
                             const Mat0Material *core)
{
  MatMaterial *self = g_object_new (MAT_TYPE_MATERIAL, NULL);

  self->entry = *entry;
  self->entry.type_id = NRES_TYPE_MAT0;
  self->entry.attr2 = core->attr2;
  self->source = -1;
  self->decoded = TRUE;
  self->phases = g_list_store_new (MAT_TYPE_PHASE);
  self->blocks = g_list_store_new (MAT_TYPE_ANIM_BLOCK);
  load_core (self, core);

  return self;
}

void
_mat_material_set_library (MatMaterial *self,
                           MatLibrary  *library)
{
  self->library = library;
}

/* Payloads from this size on are decoded where the material is made:
 * 64 KiB is some 10,000 keys. */
#define PREPARE_SIZE (64u << 10)

void
_mat_material_prepare (MatMaterial *self)
{
  g_autoptr(GPtrArray) lints = NULL;

  if (self->raw == NULL || g_bytes_get_size (self->raw) < PREPARE_SIZE)
    return;
  if (mat_material_get_editable (self))
    lints = mat_material_dup_diagnostics (self);
}

void
_mat_material_set_entry_name (MatMaterial *self,
                              const char  *raw)
{
  g_return_if_fail (self->library == NULL);

  memcpy (self->entry.name, raw, NRES_NAME_SIZE);
  g_clear_pointer (&self->name, g_free);
  /* the lints name the entry */
  g_clear_pointer (&self->lints, g_ptr_array_unref);
}

MatLibrary *
_mat_material_get_library (MatMaterial *self)
{
  return self->library;
}

const NresEntry *
_mat_material_get_entry (MatMaterial *self)
{
  return &self->entry;
}

gint
_mat_material_get_source (MatMaterial *self,
                          guint        generation)
{
  return self->generation == generation ? self->source : -1;
}

void
_mat_material_rebase (MatMaterial       *self,
                      const NresArchive *archive,
                      guint              index,
                      guint              generation)
{
  const NresEntry *e = &archive->entries[index];

  self->source = (gint) index;
  self->generation = generation;
  g_clear_pointer (&self->raw, g_bytes_unref);
  self->raw = nres_archive_payload_bytes (archive, index);
  self->entry.data_offset = e->data_offset;
  self->entry.size = e->size;
  self->entry.sort_index = e->sort_index;
}

GBytes *
_mat_material_dup_payload (MatMaterial *self,
                           guint        generation)
{
  if (self->decoded && self->entry.type_id == NRES_TYPE_MAT0 && self->error == NULL)
    {
      g_autoptr(Mat0Material) core = mat_material_dup_core (self);

      return mat0_encode (core);
    }

  if (_mat_material_get_source (self, generation) >= 0)
    return NULL;

  return self->raw != NULL ? g_bytes_ref (self->raw) : g_bytes_new (NULL, 0);
}

gboolean
_mat_material_check_editable (MatMaterial  *self,
                              GError      **error)
{
  if (self == NULL || self->library == NULL)
    {
      g_set_error_literal (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                           _("The object is no longer part of a library"));
      return FALSE;
    }

  ensure_decoded (self);

  if (self->entry.type_id != NRES_TYPE_MAT0)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” is not a material and is kept read-only"),
                   mat_material_get_name (self));
      return FALSE;
    }
  if (self->error != NULL)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” does not decode and is kept read-only: %s"),
                   mat_material_get_name (self), self->error);
      return FALSE;
    }

  return TRUE;
}

MatHistory *
_mat_material_get_history (MatMaterial *self)
{
  return _mat_library_get_history (self->library);
}

void
_mat_material_content_changed (MatMaterial *self)
{
  guint n_phases, n_blocks;
  gboolean animated, textured;

  compute_summary (self, &n_phases, &n_blocks, &animated, &textured);

  g_object_freeze_notify (G_OBJECT (self));
  if (n_phases != self->n_phases)
    {
      self->n_phases = n_phases;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_PHASES]);
    }
  if (n_blocks != self->n_blocks)
    {
      self->n_blocks = n_blocks;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_BLOCKS]);
    }
  if (animated != self->animated)
    {
      self->animated = animated;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATED]);
    }
  if (textured != self->textured)
    {
      self->textured = textured;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURED]);
    }
  g_object_thaw_notify (G_OBJECT (self));

  self->swatch_valid = FALSE;
  clear_caches (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

void
_mat_material_remap_keys (MatMaterial *self,
                          const guint *map,
                          guint        n_map,
                          GPtrArray   *keys,
                          GArray      *values)
{
  guint n_blocks = store_len (self->blocks);

  for (guint b = 0; b < n_blocks; b++)
    {
      GListModel *model = mat_anim_block_get_keys (item_at (self->blocks, b));
      guint n_keys = g_list_model_get_n_items (model);

      for (guint k = 0; k < n_keys; k++)
        {
          g_autoptr(MatKey) key = g_list_model_get_item (model, k);
          guint16 k0 = mat_key_get_k0 (key);
          guint16 value;

          if (k0 >= n_map || map[k0] == k0)
            continue;
          value = (guint16) map[k0];
          g_ptr_array_add (keys, g_object_ref (key));
          g_array_append_val (values, value);
        }
    }
}

static void
renumber_phases (MatMaterial *self,
                 guint        from)
{
  guint n = store_len (self->phases);

  for (guint i = from; i < n; i++)
    _mat_phase_attach (item_at (self->phases, i), self, i);
}

static void
renumber_blocks (MatMaterial *self,
                 guint        from)
{
  guint n = store_len (self->blocks);

  for (guint i = from; i < n; i++)
    _mat_anim_block_attach (item_at (self->blocks, i), self, i);
}

static void
set_name_cache (MatMaterial *self)
{
  g_free (self->name);
  self->name = cp1251_to_utf8 ((const guint8 *) self->entry.name, NRES_NAME_SIZE);
}

/* Command: a directory u32 (attr1, attr3) or a metadata value. */
enum {
  FIELD_ATTR1,
  FIELD_ATTR3,
  FIELD_META_A,
  FIELD_META_B,
  FIELD_META_C,
  FIELD_META_D,
};

typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  guint        field;
  guint32      value;
} SetFieldCommand;

static guint32
field_get (MatMaterial *self,
           guint        field)
{
  switch (field)
    {
    case FIELD_ATTR1: return self->entry.attr1;
    case FIELD_ATTR3: return self->entry.attr3;
    case FIELD_META_A: return self->meta_a;
    case FIELD_META_B: return self->meta_b;
    case FIELD_META_C: return self->meta_c;
    default: return self->meta_d;
    }
}

static void
field_set (MatMaterial *self,
           guint        field,
           guint32      value)
{
  switch (field)
    {
    case FIELD_ATTR1: self->entry.attr1 = value; break;
    case FIELD_ATTR3: self->entry.attr3 = value; break;
    case FIELD_META_A: self->meta_a = (guint8) value; break;
    case FIELD_META_B: self->meta_b = (guint8) value; break;
    case FIELD_META_C: self->meta_c = value; break;
    default: self->meta_d = value; break;
    }
}

static GParamSpec *
field_pspec (guint field)
{
  static const guint props[] = {
    PROP_ATTR1, PROP_ATTR3, PROP_META_A, PROP_META_B, PROP_META_C, PROP_META_D,
  };

  return properties[props[field]];
}

static void
set_field_run (MatCommand *cmd,
               gboolean    undo)
{
  SetFieldCommand *self = (SetFieldCommand *) cmd;
  guint32 old = field_get (self->material, self->field);

  field_set (self->material, self->field, self->value);
  self->value = old;
  if (old != field_get (self->material, self->field))
    {
      g_object_notify_by_pspec (G_OBJECT (self->material), field_pspec (self->field));
      _mat_material_content_changed (self->material);
    }
}

static void
material_command_free (MatCommand *cmd)
{
  SetFieldCommand *self = (SetFieldCommand *) cmd;

  g_clear_object (&self->material);
}

static gboolean
set_field_merge (MatCommand       *cmd,
                 const MatCommand *next)
{
  SetFieldCommand *a = (SetFieldCommand *) cmd;
  const SetFieldCommand *b = (const SetFieldCommand *) next;

  return a->material == b->material && a->field == b->field;
}

static const MatCommandClass set_field_class = {
  set_field_run,
  material_command_free,
  set_field_merge,
};

/* Command: the raw name field. */
typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  char         name[NRES_NAME_SIZE];
} RenameCommand;

static void
rename_run (MatCommand *cmd,
            gboolean    undo)
{
  RenameCommand *self = (RenameCommand *) cmd;
  MatMaterial *material = self->material;
  char old[NRES_NAME_SIZE];
  g_autofree char *old_name = g_strdup (mat_material_get_name (material));

  memcpy (old, material->entry.name, NRES_NAME_SIZE);
  memcpy (material->entry.name, self->name, NRES_NAME_SIZE);
  memcpy (self->name, old, NRES_NAME_SIZE);
  set_name_cache (material);

  if (g_strcmp0 (old_name, material->name) != 0)
    g_object_notify_by_pspec (G_OBJECT (material), properties[PROP_NAME]);
  if (memcmp (old, material->entry.name, NRES_NAME_SIZE) != 0)
    _mat_material_content_changed (material);
}

static const MatCommandClass rename_class = {
  rename_run,
  material_command_free,
  NULL,
};

/* Command: the payload version with the four metadata values. */
typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  guint32      attr2;
  guint32      meta[4];
} SetAttr2Command;

static void
set_attr2_run (MatCommand *cmd,
               gboolean    undo)
{
  SetAttr2Command *self = (SetAttr2Command *) cmd;
  MatMaterial *material = self->material;
  guint32 old_attr2 = material->entry.attr2;
  guint32 old_meta[4];

  for (guint i = 0; i < 4; i++)
    old_meta[i] = field_get (material, FIELD_META_A + i);

  material->entry.attr2 = self->attr2;
  for (guint i = 0; i < 4; i++)
    field_set (material, FIELD_META_A + i, self->meta[i]);
  self->attr2 = old_attr2;
  memcpy (self->meta, old_meta, sizeof old_meta);

  g_object_freeze_notify (G_OBJECT (material));
  if (old_attr2 != material->entry.attr2)
    g_object_notify_by_pspec (G_OBJECT (material), properties[PROP_ATTR2]);
  for (guint i = 0; i < 4; i++)
    if (old_meta[i] != field_get (material, FIELD_META_A + i))
      g_object_notify_by_pspec (G_OBJECT (material), field_pspec (FIELD_META_A + i));
  g_object_thaw_notify (G_OBJECT (material));
  _mat_material_content_changed (material);
}

static const MatCommandClass set_attr2_class = {
  set_attr2_run,
  material_command_free,
  NULL,
};

/* Command: insert or remove one phase, with the k0 values it rewrote. */
typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  MatPhase    *phase;
  guint        position;
  gboolean     remove;
  GPtrArray   *keys;     /* MatKey whose k0 changes */
  GArray      *values;   /* guint16: the value to swap in */
} PhaseListCommand;

static void
swap_keys (GPtrArray *keys,
           GArray    *values)
{
  for (guint i = 0; i < keys->len; i++)
    _mat_key_swap_k0 (g_ptr_array_index (keys, i), &g_array_index (values, guint16, i));
}

static void
phase_list_run (MatCommand *cmd,
                gboolean    undo)
{
  PhaseListCommand *self = (PhaseListCommand *) cmd;
  MatMaterial *material = self->material;

  if (self->remove == undo)
    {
      _mat_phase_attach (self->phase, material, self->position);
      g_list_store_insert (material->phases, self->position, self->phase);
    }
  else
    {
      g_list_store_remove (material->phases, self->position);
      _mat_phase_attach (self->phase, NULL, 0);
    }
  renumber_phases (material, self->position);
  swap_keys (self->keys, self->values);
  _mat_material_content_changed (material);
}

static void
phase_list_free (MatCommand *cmd)
{
  PhaseListCommand *self = (PhaseListCommand *) cmd;

  g_clear_object (&self->material);
  g_clear_object (&self->phase);
  g_clear_pointer (&self->keys, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_array_unref);
}

static const MatCommandClass phase_list_class = {
  phase_list_run,
  phase_list_free,
  NULL,
};

/* Command: move one phase, with the k0 values it rewrote. */
typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  guint        from;
  guint        to;
  GPtrArray   *keys;
  GArray      *values;
} MovePhaseCommand;

static void
move_phase_run (MatCommand *cmd,
                gboolean    undo)
{
  MovePhaseCommand *self = (MovePhaseCommand *) cmd;
  MatMaterial *material = self->material;
  guint from = undo ? self->to : self->from;
  guint to = undo ? self->from : self->to;
  g_autoptr(MatPhase) phase = g_list_model_get_item (G_LIST_MODEL (material->phases), from);

  g_list_store_remove (material->phases, from);
  g_list_store_insert (material->phases, to, phase);
  renumber_phases (material, MIN (from, to));
  swap_keys (self->keys, self->values);
  _mat_material_content_changed (material);
}

static void
move_phase_free (MatCommand *cmd)
{
  MovePhaseCommand *self = (MovePhaseCommand *) cmd;

  g_clear_object (&self->material);
  g_clear_pointer (&self->keys, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_array_unref);
}

static const MatCommandClass move_phase_class = {
  move_phase_run,
  move_phase_free,
  NULL,
};

/* Command: insert or remove one block. */
typedef struct {
  MatCommand    parent;
  MatMaterial  *material;
  MatAnimBlock *block;
  guint         position;
  gboolean      remove;
} BlockListCommand;

static void
block_list_run (MatCommand *cmd,
                gboolean    undo)
{
  BlockListCommand *self = (BlockListCommand *) cmd;
  MatMaterial *material = self->material;

  if (self->remove == undo)
    {
      _mat_anim_block_attach (self->block, material, self->position);
      g_list_store_insert (material->blocks, self->position, self->block);
    }
  else
    {
      g_list_store_remove (material->blocks, self->position);
      _mat_anim_block_attach (self->block, NULL, 0);
    }
  renumber_blocks (material, self->position);
  _mat_material_content_changed (material);
}

static void
block_list_free (MatCommand *cmd)
{
  BlockListCommand *self = (BlockListCommand *) cmd;

  g_clear_object (&self->material);
  g_clear_object (&self->block);
}

static const MatCommandClass block_list_class = {
  block_list_run,
  block_list_free,
  NULL,
};

/* Command: replaces runs of phases and blocks with other objects and,
 * optionally, the directory fields and the metadata. It swaps: what it
 * took out is what it puts back, so undo restores the very objects. */
typedef struct {
  MatCommand   parent;
  MatMaterial *material;
  MatSplice    splice;
} SpliceCommand;

static GPtrArray *
splice_store (MatMaterial *material,
              GListStore  *store,
              guint        position,
              guint        n_removed,
              GPtrArray   *added,
              gboolean     phases)
{
  GPtrArray *removed = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_removed; i++)
    g_ptr_array_add (removed, g_object_ref (item_at (store, position + i)));
  /* attached before they appear, so a view sees them whole */
  for (guint i = 0; i < added->len; i++)
    {
      if (phases)
        _mat_phase_attach (added->pdata[i], material, position + i);
      else
        _mat_anim_block_attach (added->pdata[i], material, position + i);
    }
  g_list_store_splice (store, position, n_removed, added->pdata, added->len);
  for (guint i = 0; i < removed->len; i++)
    {
      if (phases)
        _mat_phase_attach (removed->pdata[i], NULL, 0);
      else
        _mat_anim_block_attach (removed->pdata[i], NULL, 0);
    }
  if (phases)
    renumber_phases (material, position);
  else
    renumber_blocks (material, position);
  return removed;
}

static void
splice_run (MatCommand *cmd,
            gboolean    undo)
{
  SpliceCommand *self = (SpliceCommand *) cmd;
  MatMaterial *material = self->material;
  MatSplice *splice = &self->splice;

  g_object_freeze_notify (G_OBJECT (material));
  if (splice->set_fields)
    {
      guint32 attr[3] = { material->entry.attr1, material->entry.attr2, material->entry.attr3 };
      guint32 meta[4];

      for (guint i = 0; i < 4; i++)
        meta[i] = field_get (material, FIELD_META_A + i);
      material->entry.attr1 = splice->attr1;
      material->entry.attr2 = splice->attr2;
      material->entry.attr3 = splice->attr3;
      for (guint i = 0; i < 4; i++)
        field_set (material, FIELD_META_A + i, splice->meta[i]);

      if (attr[0] != material->entry.attr1)
        g_object_notify_by_pspec (G_OBJECT (material), properties[PROP_ATTR1]);
      if (attr[1] != material->entry.attr2)
        g_object_notify_by_pspec (G_OBJECT (material), properties[PROP_ATTR2]);
      if (attr[2] != material->entry.attr3)
        g_object_notify_by_pspec (G_OBJECT (material), properties[PROP_ATTR3]);
      for (guint i = 0; i < 4; i++)
        if (meta[i] != field_get (material, FIELD_META_A + i))
          g_object_notify_by_pspec (G_OBJECT (material), field_pspec (FIELD_META_A + i));

      splice->attr1 = attr[0];
      splice->attr2 = attr[1];
      splice->attr3 = attr[2];
      memcpy (splice->meta, meta, sizeof meta);
    }
  if (splice->phases != NULL)
    {
      GPtrArray *removed = splice_store (material, material->phases, splice->phase_pos,
                                         splice->n_phases_removed, splice->phases, TRUE);

      splice->n_phases_removed = splice->phases->len;
      g_ptr_array_unref (splice->phases);
      splice->phases = removed;
    }
  if (splice->blocks != NULL)
    {
      GPtrArray *removed = splice_store (material, material->blocks, splice->block_pos,
                                         splice->n_blocks_removed, splice->blocks, FALSE);

      splice->n_blocks_removed = splice->blocks->len;
      g_ptr_array_unref (splice->blocks);
      splice->blocks = removed;
    }
  g_object_thaw_notify (G_OBJECT (material));
  _mat_material_content_changed (material);
}

static void
splice_free (MatCommand *cmd)
{
  SpliceCommand *self = (SpliceCommand *) cmd;

  g_clear_object (&self->material);
  g_clear_pointer (&self->splice.phases, g_ptr_array_unref);
  g_clear_pointer (&self->splice.blocks, g_ptr_array_unref);
}

static const MatCommandClass splice_class = {
  splice_run,
  splice_free,
  NULL,
};

void
_mat_material_splice (MatMaterial *self,
                      MatSplice   *splice,
                      const char  *label)
{
  SpliceCommand *cmd;

  ensure_decoded (self);
  g_return_if_fail (splice->phases == NULL ||
                    splice->phase_pos + splice->n_phases_removed <= store_len (self->phases));
  g_return_if_fail (splice->blocks == NULL ||
                    splice->block_pos + splice->n_blocks_removed <= store_len (self->blocks));

  cmd = _mat_command_new (&splice_class, sizeof (SpliceCommand), label);
  cmd->material = g_object_ref (self);
  cmd->splice = *splice;
  /* the command owns the arrays now */
  splice->phases = NULL;
  splice->blocks = NULL;
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);
}

MatLibrary *
mat_material_get_library (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  return self->library;
}

const char *
mat_material_get_name (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  if (self->name == NULL)
    set_name_cache (self);

  return self->name;
}

gboolean
mat_material_set_name (MatMaterial  *self,
                       const char   *name,
                       GError      **error)
{
  RenameCommand *cmd;
  char raw[NRES_NAME_SIZE];

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  if (g_strcmp0 (name, mat_material_get_name (self)) == 0)
    return TRUE;
  if (!_mat_library_check_name (self->library, name, self, raw, error))
    return FALSE;

  cmd = _mat_command_new (&rename_class, sizeof (RenameCommand), _("Rename Material"));
  cmd->material = g_object_ref (self);
  memcpy (cmd->name, raw, NRES_NAME_SIZE);
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

guint32
mat_material_get_type_id (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  return self->entry.type_id;
}

guint32
mat_material_get_attr1 (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  return self->entry.attr1;
}

guint32
mat_material_get_attr2 (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  return self->entry.attr2;
}

guint32
mat_material_get_attr3 (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  return self->entry.attr3;
}

static gboolean
set_field (MatMaterial  *self,
           guint         field,
           guint32       value,
           const char   *label,
           GError      **error)
{
  SetFieldCommand *cmd;

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  if (field >= FIELD_META_A)
    {
      guint32 attr2 = self->entry.attr2;
      gboolean present = field <= FIELD_META_B ? mat0_has_meta_ab (attr2) :
                         field == FIELD_META_C ? mat0_has_meta_c (attr2) :
                         mat0_has_meta_d (attr2);

      if (!present)
        {
          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT,
                       _("Payload version %u of “%s” does not store this metadata field"),
                       attr2, mat_material_get_name (self));
          return FALSE;
        }
    }
  if (field_get (self, field) == value)
    return TRUE;

  cmd = _mat_command_new (&set_field_class, sizeof (SetFieldCommand), label);
  cmd->material = g_object_ref (self);
  cmd->field = field;
  cmd->value = value;
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

gboolean
mat_material_set_attr1 (MatMaterial  *self,
                        guint32       attr1,
                        GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_ATTR1, attr1, _("Change Flags"), error);
}

gboolean
mat_material_set_attr3 (MatMaterial  *self,
                        guint32       attr3,
                        GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_ATTR3, attr3, _("Change attr3"), error);
}

gboolean
mat_material_set_attr2 (MatMaterial  *self,
                        guint32       attr2,
                        GError      **error)
{
  static const guint32 defaults[4] = {
    MAT0_DEFAULT_META_A, MAT0_DEFAULT_META_B, MAT0_DEFAULT_META_C, MAT0_DEFAULT_META_D,
  };
  SetAttr2Command *cmd;
  guint32 old;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  old = self->entry.attr2;
  if (old == attr2)
    return TRUE;

  cmd = _mat_command_new (&set_attr2_class, sizeof (SetAttr2Command),
                          _("Change Payload Version"));
  cmd->material = g_object_ref (self);
  cmd->attr2 = attr2;
  for (guint i = 0; i < 4; i++)
    {
      gboolean was = i < 2 ? mat0_has_meta_ab (old) : i == 2 ? mat0_has_meta_c (old) : mat0_has_meta_d (old);
      gboolean is = i < 2 ? mat0_has_meta_ab (attr2) : i == 2 ? mat0_has_meta_c (attr2) : mat0_has_meta_d (attr2);

      cmd->meta[i] = was && is ? field_get (self, FIELD_META_A + i) : defaults[i];
    }
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

guint8
mat_material_get_meta_a (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->meta_a;
}

guint8
mat_material_get_meta_b (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->meta_b;
}

guint32
mat_material_get_meta_c (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->meta_c;
}

guint32
mat_material_get_meta_d (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->meta_d;
}

gboolean
mat_material_has_meta_ab (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  return mat0_has_meta_ab (self->entry.attr2);
}

gboolean
mat_material_has_meta_c (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  return mat0_has_meta_c (self->entry.attr2);
}

gboolean
mat_material_has_meta_d (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  return mat0_has_meta_d (self->entry.attr2);
}

gboolean
mat_material_set_meta_a (MatMaterial  *self,
                         guint8        value,
                         GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_META_A, value, _("Change Metadata A"), error);
}

gboolean
mat_material_set_meta_b (MatMaterial  *self,
                         guint8        value,
                         GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_META_B, value, _("Change Metadata B"), error);
}

gboolean
mat_material_set_meta_c (MatMaterial  *self,
                         guint32       value,
                         GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_META_C, value, _("Change Metadata C"), error);
}

gboolean
mat_material_set_meta_d (MatMaterial  *self,
                         guint32       value,
                         GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return set_field (self, FIELD_META_D, value, _("Change Metadata D"), error);
}

gboolean
mat_material_get_editable (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  if (self->entry.type_id != NRES_TYPE_MAT0)
    return FALSE;
  ensure_decoded (self);
  return self->error == NULL;
}

const char *
mat_material_get_error (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  ensure_decoded (self);
  return self->error;
}

guint
mat_material_get_n_phases (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->n_phases;
}

guint
mat_material_get_n_blocks (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), 0);

  ensure_decoded (self);
  return self->n_blocks;
}

gboolean
mat_material_get_animated (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  ensure_decoded (self);
  return self->animated;
}

gboolean
mat_material_get_textured (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  ensure_decoded (self);
  return self->textured;
}

gboolean
mat_material_get_swatch (MatMaterial *self,
                         guint8       rgba[4])
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  ensure_decoded (self);
  if (!self->swatch_valid)
    {
      PhaseRuntime phase0;
      Mat0Phase record;

      self->swatch_valid = TRUE;
      self->has_swatch = FALSE;
      memset (self->swatch, 0, sizeof self->swatch);
      if (self->error == NULL && store_len (self->phases) > 0)
        {
          MatPhase *phase = item_at (self->phases, 0);

          memcpy (record.p, mat_phase_get_params (phase), sizeof record.p);
          memcpy (record.texture, mat_phase_get_texture_raw (phase), sizeof record.texture);
          phase_eval_expand (&record, 0, &phase0);
          self->has_swatch = phase_light_swatch (&phase0, 1, self->swatch);
        }
    }
  memcpy (rgba, self->swatch, sizeof self->swatch);
  return self->has_swatch;
}

gboolean
mat_material_get_swatch_cached (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);

  return self->swatch_valid;
}

GListModel *
mat_material_get_phases (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  ensure_decoded (self);
  return G_LIST_MODEL (self->phases);
}

GListModel *
mat_material_get_blocks (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  ensure_decoded (self);
  return G_LIST_MODEL (self->blocks);
}

static gboolean
check_phase_room (MatMaterial  *self,
                  GError      **error)
{
  if (store_len (self->phases) >= G_MAXUINT16)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_ITEMS,
                   _("A material holds at most %u phases"), (guint) G_MAXUINT16);
      return FALSE;
    }

  return TRUE;
}

/* Pushes an insert of @phase (owned) at @position. */
static MatPhase *
push_insert_phase (MatMaterial *self,
                   MatPhase    *phase,
                   guint        position,
                   const char  *label)
{
  guint n = store_len (self->phases);
  g_autofree guint *map = g_new (guint, n + 1);
  PhaseListCommand *cmd;

  for (guint i = 0; i < n; i++)
    map[i] = i < position ? i : i + 1;

  cmd = _mat_command_new (&phase_list_class, sizeof (PhaseListCommand), label);
  cmd->material = g_object_ref (self);
  cmd->phase = phase;
  cmd->position = position;
  cmd->remove = FALSE;
  cmd->keys = g_ptr_array_new_with_free_func (g_object_unref);
  cmd->values = g_array_new (FALSE, FALSE, sizeof (guint16));
  _mat_material_remap_keys (self, map, n, cmd->keys, cmd->values);
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return phase;
}

MatPhase *
_mat_material_insert_phase_data (MatMaterial     *self,
                                 guint            position,
                                 const Mat0Phase *data,
                                 const char      *label)
{
  return push_insert_phase (self, _mat_phase_new (data), position, label);
}

MatPhase *
mat_material_insert_phase (MatMaterial  *self,
                           guint         position,
                           GError      **error)
{
  g_autoptr(Mat0Material) canonical = NULL;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (self, error) || !check_phase_room (self, error))
    return NULL;
  g_return_val_if_fail (position <= store_len (self->phases), NULL);

  canonical = mat0_material_new_canonical ();
  return push_insert_phase (self, _mat_phase_new (&canonical->phases[0]),
                            position, _("Add Phase"));
}

MatPhase *
mat_material_duplicate_phase (MatMaterial  *self,
                              guint         index,
                              GError      **error)
{
  MatPhase *source;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (self, error) || !check_phase_room (self, error))
    return NULL;
  g_return_val_if_fail (index < store_len (self->phases), NULL);

  source = item_at (self->phases, index);
  return push_insert_phase (self, _mat_phase_new (_mat_phase_get_data (source)),
                            index + 1, _("Duplicate Phase"));
}

gboolean
mat_material_move_phase (MatMaterial  *self,
                         guint         from,
                         guint         to,
                         GError      **error)
{
  g_autofree guint *order = NULL;
  g_autofree guint *map = NULL;
  MovePhaseCommand *cmd;
  guint n, moved;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  n = store_len (self->phases);
  g_return_val_if_fail (from < n && to < n, FALSE);
  if (from == to)
    return TRUE;

  /* order[new] = old */
  order = g_new (guint, n);
  map = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  moved = order[from];
  if (from < to)
    memmove (&order[from], &order[from + 1], (to - from) * sizeof (guint));
  else
    memmove (&order[to + 1], &order[to], (from - to) * sizeof (guint));
  order[to] = moved;
  for (guint i = 0; i < n; i++)
    map[order[i]] = i;

  cmd = _mat_command_new (&move_phase_class, sizeof (MovePhaseCommand), _("Move Phase"));
  cmd->material = g_object_ref (self);
  cmd->from = from;
  cmd->to = to;
  cmd->keys = g_ptr_array_new_with_free_func (g_object_unref);
  cmd->values = g_array_new (FALSE, FALSE, sizeof (guint16));
  _mat_material_remap_keys (self, map, n, cmd->keys, cmd->values);
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

gboolean
mat_material_remove_phase (MatMaterial  *self,
                           guint         index,
                           GError      **error)
{
  g_autofree guint *map = NULL;
  PhaseListCommand *cmd;
  guint n;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  n = store_len (self->phases);
  g_return_val_if_fail (index < n, FALSE);
  if (n <= 1)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_LAST_PHASE,
                   _("“%s” must keep at least one phase"), mat_material_get_name (self));
      return FALSE;
    }

  map = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    map[i] = i < index ? i : i > index ? i - 1 : MIN (index, n - 2);

  cmd = _mat_command_new (&phase_list_class, sizeof (PhaseListCommand), _("Delete Phase"));
  cmd->material = g_object_ref (self);
  cmd->phase = g_object_ref (item_at (self->phases, index));
  cmd->position = index;
  cmd->remove = TRUE;
  cmd->keys = g_ptr_array_new_with_free_func (g_object_unref);
  cmd->values = g_array_new (FALSE, FALSE, sizeof (guint16));
  _mat_material_remap_keys (self, map, n, cmd->keys, cmd->values);
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

MatAnimBlock *
mat_material_insert_block (MatMaterial  *self,
                           guint         position,
                           GError      **error)
{
  static const Mat0Key key = { 0, 1000, 0 };
  Mat0Block data = { PHASE_EVAL_BLEND_KNOWN << 3, 1, (Mat0Key *) &key };
  BlockListCommand *cmd;
  MatAnimBlock *block;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (self, error))
    return NULL;
  g_return_val_if_fail (position <= store_len (self->blocks), NULL);
  if (store_len (self->blocks) >= MAT0_MAX_BLOCKS)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_BLOCKS,
                   _("A material holds at most %u animation blocks"), (guint) MAT0_MAX_BLOCKS);
      return NULL;
    }

  block = _mat_anim_block_new (&data);
  cmd = _mat_command_new (&block_list_class, sizeof (BlockListCommand), _("Add Animation Block"));
  cmd->material = g_object_ref (self);
  cmd->block = block;
  cmd->position = position;
  cmd->remove = FALSE;
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return block;
}

gboolean
mat_material_remove_block (MatMaterial  *self,
                           guint         index,
                           GError      **error)
{
  BlockListCommand *cmd;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self, error))
    return FALSE;
  g_return_val_if_fail (index < store_len (self->blocks), FALSE);

  cmd = _mat_command_new (&block_list_class, sizeof (BlockListCommand), _("Delete Animation Block"));
  cmd->material = g_object_ref (self);
  cmd->block = g_object_ref (item_at (self->blocks, index));
  cmd->position = index;
  cmd->remove = TRUE;
  _mat_history_push (_mat_material_get_history (self), &cmd->parent);

  return TRUE;
}

Mat0Material *
mat_material_dup_core (MatMaterial *self)
{
  Mat0Material *core;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  if (!mat_material_get_editable (self))
    return NULL;
  if (self->core != NULL)
    return core_copy (self->core);

  core = g_new0 (Mat0Material, 1);
  core->attr2 = self->entry.attr2;
  core->meta_a = self->meta_a;
  core->meta_b = self->meta_b;
  core->meta_c = self->meta_c;
  core->meta_d = self->meta_d;
  core->n_phases = store_len (self->phases);
  core->phases = g_new0 (Mat0Phase, core->n_phases > 0 ? core->n_phases : 1);
  for (guint i = 0; i < core->n_phases; i++)
    core->phases[i] = *_mat_phase_get_data (item_at (self->phases, i));
  core->n_blocks = store_len (self->blocks);
  core->blocks = g_new0 (Mat0Block, core->n_blocks > 0 ? core->n_blocks : 1);
  for (guint i = 0; i < core->n_blocks; i++)
    _mat_anim_block_to_core (item_at (self->blocks, i), &core->blocks[i]);

  self->core = core_copy (core);
  return core;
}

GBytes *
mat_material_dup_payload (MatMaterial *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  if (mat_material_get_editable (self))
    {
      g_autoptr(Mat0Material) core = mat_material_dup_core (self);

      return mat0_encode (core);
    }
  return self->raw != NULL ? g_bytes_ref (self->raw) : g_bytes_new (NULL, 0);
}

GPtrArray *
mat_material_dup_diagnostics (MatMaterial *self)
{
  g_autoptr(Mat0Material) core = NULL;
  GPtrArray *out;
  gint index = -1;
  gsize offset;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);

  if (self->library != NULL)
    index = mat_library_index_of (self->library, self);

  if (mat_material_get_error (self) != NULL)
    {
      Mat0Diagnostic *diag = g_new0 (Mat0Diagnostic, 1);

      diag->severity = MAT0_SEVERITY_ERROR;
      diag->check = MAT0_CHECK_DECODE_ERROR;
      diag->entry = index;
      diag->phase = diag->block = diag->key = -1;
      diag->offset = self->entry.data_offset;
      diag->entry_name = g_strdup (mat_material_get_name (self));
      diag->message = g_strdup (self->error);
      g_ptr_array_add (out, diag);
      return out;
    }

  /* the lints of this content, name and offset, made once */
  offset = self->source >= 0 ? self->entry.data_offset : 0;
  if (self->lints != NULL &&
      (self->lint_offset != offset || g_strcmp0 (self->lint_name, mat_material_get_name (self)) != 0))
    g_clear_pointer (&self->lints, g_ptr_array_unref);
  if (self->lints == NULL)
    {
      core = mat_material_dup_core (self);
      if (core == NULL)
        return out;
      self->lints = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);
      mat0_lint_material (core, -1, mat_material_get_name (self), offset, self->lints);
      g_free (self->lint_name);
      self->lint_name = g_strdup (mat_material_get_name (self));
      self->lint_offset = offset;
    }
  for (guint i = 0; i < self->lints->len; i++)
    {
      const Mat0Diagnostic *lint = g_ptr_array_index (self->lints, i);
      Mat0Diagnostic *diag = g_new (Mat0Diagnostic, 1);

      *diag = *lint;
      diag->entry = index;
      diag->entry_name = g_strdup (lint->entry_name);
      diag->message = g_strdup (lint->message);
      g_ptr_array_add (out, diag);
    }

  return out;
}

static void
mat_material_dispose (GObject *object)
{
  MatMaterial *self = (MatMaterial *) object;

  if (self->phases != NULL)
    for (guint i = 0; i < store_len (self->phases); i++)
      _mat_phase_attach (item_at (self->phases, i), NULL, 0);
  if (self->blocks != NULL)
    for (guint i = 0; i < store_len (self->blocks); i++)
      _mat_anim_block_attach (item_at (self->blocks, i), NULL, 0);
  g_clear_object (&self->phases);
  g_clear_object (&self->blocks);

  G_OBJECT_CLASS (mat_material_parent_class)->dispose (object);
}

static void
mat_material_finalize (GObject *object)
{
  MatMaterial *self = (MatMaterial *) object;

  g_clear_pointer (&self->raw, g_bytes_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->error, g_free);
  clear_caches (self);

  G_OBJECT_CLASS (mat_material_parent_class)->finalize (object);
}

static void
mat_material_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  MatMaterial *self = MAT_MATERIAL (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, mat_material_get_name (self));
      break;
    case PROP_TYPE_ID:
      g_value_set_uint (value, self->entry.type_id);
      break;
    case PROP_ATTR1:
      g_value_set_uint (value, self->entry.attr1);
      break;
    case PROP_ATTR2:
      g_value_set_uint (value, self->entry.attr2);
      break;
    case PROP_ATTR3:
      g_value_set_uint (value, self->entry.attr3);
      break;
    case PROP_META_A:
      g_value_set_uint (value, mat_material_get_meta_a (self));
      break;
    case PROP_META_B:
      g_value_set_uint (value, mat_material_get_meta_b (self));
      break;
    case PROP_META_C:
      g_value_set_uint (value, mat_material_get_meta_c (self));
      break;
    case PROP_META_D:
      g_value_set_uint (value, mat_material_get_meta_d (self));
      break;
    case PROP_EDITABLE:
      g_value_set_boolean (value, mat_material_get_editable (self));
      break;
    case PROP_ERROR:
      g_value_set_string (value, mat_material_get_error (self));
      break;
    case PROP_N_PHASES:
      g_value_set_uint (value, mat_material_get_n_phases (self));
      break;
    case PROP_N_BLOCKS:
      g_value_set_uint (value, mat_material_get_n_blocks (self));
      break;
    case PROP_ANIMATED:
      g_value_set_boolean (value, mat_material_get_animated (self));
      break;
    case PROP_TEXTURED:
      g_value_set_boolean (value, mat_material_get_textured (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
uint_prop (const char *name,
           guint       max,
           guint       def)
{
  return g_param_spec_uint (name, NULL, NULL, 0, max, def,
                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
mat_material_class_init (MatMaterialClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_material_dispose;
  object_class->finalize = mat_material_finalize;
  object_class->get_property = mat_material_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TYPE_ID] = uint_prop ("type-id", G_MAXUINT32, 0);
  properties[PROP_ATTR1] = uint_prop ("attr1", G_MAXUINT32, 0);
  properties[PROP_ATTR2] = uint_prop ("attr2", G_MAXUINT32, 0);
  properties[PROP_ATTR3] = uint_prop ("attr3", G_MAXUINT32, 0);
  properties[PROP_META_A] = uint_prop ("meta-a", 255, MAT0_DEFAULT_META_A);
  properties[PROP_META_B] = uint_prop ("meta-b", 255, MAT0_DEFAULT_META_B);
  properties[PROP_META_C] = uint_prop ("meta-c", G_MAXUINT32, MAT0_DEFAULT_META_C);
  properties[PROP_META_D] = uint_prop ("meta-d", G_MAXUINT32, MAT0_DEFAULT_META_D);
  properties[PROP_EDITABLE] =
    g_param_spec_boolean ("editable", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_PHASES] = uint_prop ("n-phases", G_MAXUINT16, 0);
  properties[PROP_N_BLOCKS] = uint_prop ("n-blocks", G_MAXUINT16, 0);
  properties[PROP_ANIMATED] =
    g_param_spec_boolean ("animated", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURED] =
    g_param_spec_boolean ("textured", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatMaterial::changed:
   *
   * After any change of the material or anything below it.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_material_init (MatMaterial *self)
{
  self->source = -1;
  self->meta_a = MAT0_DEFAULT_META_A;
  self->meta_b = MAT0_DEFAULT_META_B;
  self->meta_c = MAT0_DEFAULT_META_C;
  self->meta_d = MAT0_DEFAULT_META_D;
}
