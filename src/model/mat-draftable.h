/* mat-draftable.h - an archive whose unsaved edits can be kept as a draft
 *
 * What the draft store (mat-drafts.h) needs of an open archive, whatever
 * it holds. MatArchive (mat-archive.h) implements it once for every
 * archive the editor edits: the material library (MatLibrary), a
 * Textures.lib (MatTextureLibrary) and the .rlb model archives
 * (MatModelArchive).
 *
 * An implementation has the properties "file" (GFile), "etag" (string)
 * and "dirty" (boolean), each notified when it changes (a save changes
 * "etag" and, to another file, "file"), and a MatHistory whose "changed"
 * signal follows every edit, undo and redo.
 */
#pragma once

#include <gio/gio.h>

#include "mat-history.h"

G_BEGIN_DECLS

/* What a save would write, taken on the main thread and made into bytes
 * in any thread: the archive's base as it was (a reference to its bytes
 * and a copy of its directory) and every entry's new content. Owns what
 * it holds; the archive may go on changing, be saved or go meanwhile. */
typedef struct _MatSavePlan MatSavePlan;

/* The bytes of the plan (the preserving writer: the same bytes a save
 * of the archive at the time of the plan writes). Any thread; a plan may
 * be written more than once.
 * Returns: (transfer full): the archive's file, or %NULL with @error. */
GBytes      *mat_save_plan_write           (MatSavePlan    *plan,
                                            GError        **error);
void         mat_save_plan_free            (MatSavePlan    *plan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatSavePlan, mat_save_plan_free)

#define MAT_TYPE_DRAFTABLE (mat_draftable_get_type ())

G_DECLARE_INTERFACE (MatDraftable, mat_draftable, MAT, DRAFTABLE, GObject)

struct _MatDraftableInterface
{
  GTypeInterface parent_iface;

  /* What kind of archive it is, as the draft index names it:
   * MAT_DRAFT_KIND_MATERIALS, MAT_DRAFT_KIND_TEXTURES, ... */
  const char  *(*get_kind)    (MatDraftable  *self);
  GFile       *(*get_file)    (MatDraftable  *self);
  const char  *(*get_etag)    (MatDraftable  *self);
  gboolean     (*get_dirty)   (MatDraftable  *self);
  MatHistory  *(*get_history) (MatDraftable  *self);
  /* The state now as a plan; main thread, and quick: the bytes are made
   * by mat_save_plan_write(). */
  MatSavePlan *(*plan_save)   (MatDraftable  *self,
                               GError       **error);
};

/* The kinds of archive drafts are kept for. */
#define MAT_DRAFT_KIND_MATERIALS "materials"
#define MAT_DRAFT_KIND_TEXTURES  "textures"
#define MAT_DRAFT_KIND_MODELS    "models"

/* Returns: (transfer none): a MAT_DRAFT_KIND_* string. */
const char  *mat_draftable_get_kind        (MatDraftable  *self);
/* Returns: (transfer none) (nullable): the file it was loaded from or
 * last saved to. */
GFile       *mat_draftable_get_file        (MatDraftable  *self);
/* Returns: (transfer none) (nullable): the ETag of the version of the
 * file it was loaded as or last saved as. */
const char  *mat_draftable_get_etag        (MatDraftable  *self);
/* TRUE iff the state differs from the last load or save. */
gboolean     mat_draftable_get_dirty       (MatDraftable  *self);
/* Returns: (transfer none). */
MatHistory  *mat_draftable_get_history     (MatDraftable  *self);
/* Returns: (transfer full): the plan of what a save would write now, or
 * %NULL with the writer's error. */
MatSavePlan *mat_draftable_plan_save       (MatDraftable  *self,
                                            GError       **error);

G_END_DECLS
