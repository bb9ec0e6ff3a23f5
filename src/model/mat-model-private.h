/* mat-model-private.h - what the model's own files share, never the views
 *
 * Ownership: a MatLibrary holds its MatMaterials, a material its MatPhases
 * and MatAnimBlocks, a block its MatKeys. Each child keeps a plain pointer
 * to its parent while it is attached (in the parent's list); it is %NULL
 * once the child was removed (the history then holds it for undo) or the
 * parent was disposed.
 */
#pragma once

#include "mat0.h"
#include "nres.h"

#include "mat-anim-block.h"
#include "mat-archive-private.h"
#include "mat-draftable.h"
#include "mat-history.h"
#include "mat-key.h"
#include "mat-library.h"
#include "mat-material.h"
#include "mat-material-json.h"
#include "mat-model-entry.h"
#include "mat-model-error.h"
#include "mat-phase.h"

G_BEGIN_DECLS

/* Commands. @run applies the command (@undo FALSE: do/redo) or reverts
 * it; swap-style commands hold the value they replaced and ignore @undo.
 * @merge (optional) is asked inside a group whether @next (already run)
 * can be dropped because @cmd covers it; it may update @cmd. */
typedef struct _MatCommand MatCommand;

typedef struct {
  void     (*run)   (MatCommand       *cmd,
                     gboolean          undo);
  void     (*free)  (MatCommand       *cmd);
  gboolean (*merge) (MatCommand       *cmd,
                     const MatCommand *next);
} MatCommandClass;

struct _MatCommand {
  const MatCommandClass *klass;
  const char            *label;    /* translated, static */
  guint64                serial;   /* set by the history */
};

/* Returns: (transfer full): a zeroed command of @size bytes. */
gpointer     _mat_command_new             (const MatCommandClass *klass,
                                           gsize                  size,
                                           const char            *label);
/* Runs @cmd and records it (takes ownership). */
void         _mat_history_push            (MatHistory  *history,
                                           MatCommand  *cmd);
/* A token naming the current state: equal tokens, equal states. */
guint64      _mat_history_get_state       (MatHistory  *history);
void         _mat_history_clear           (MatHistory  *history);
MatHistory  *_mat_history_new             (void);

/* MatSavePlan: a plan of @out (taken: payloads and the array) over a
 * copy of @base's directory and a reference of its bytes.
 * Returns: (transfer full). */
MatSavePlan *_mat_save_plan_new           (const NresArchive *base,
                                           NresOutEntry      *out,
                                           guint              n_out);

/* MatLibrary */
MatHistory  *_mat_library_get_history     (MatLibrary  *library);
/* Whether @name (UTF-8) can name an entry: NAME_INVALID / NAME_TAKEN;
 * @except is ignored in the uniqueness check. On success @raw (36 bytes)
 * holds the encoded field. */
gboolean     _mat_library_check_name      (MatLibrary  *library,
                                           const char  *name,
                                           MatMaterial *except,
                                           char        *raw,
                                           GError     **error);
/* Inserts @material (a new one) at @position as one command. */
void         _mat_library_insert_material (MatLibrary  *library,
                                           MatMaterial *material,
                                           guint        position,
                                           const char  *label);

/* Inserts @materials (new ones, a ref taken of the array) at @position
 * and after, as one command with one change of the list. */
void         _mat_library_insert_materials (MatLibrary *library,
                                            GPtrArray  *materials,
                                            guint       position,
                                            const char *label);

/* MatMaterial */
MatMaterial *_mat_material_new_from_entry (const NresEntry    *entry,
                                           gint                source,
                                           guint               generation,
                                           GBytes             *payload);
MatMaterial *_mat_material_new_from_core  (const NresEntry    *entry,
                                           const Mat0Material *core);
void         _mat_material_set_library    (MatMaterial *material,
                                           MatLibrary  *library);
/* In the thread that made @material, before it is shared: decodes it and
 * makes its content and lints, what every view asks for first, when its
 * payload is large (a material of tens of thousands of keys); a small
 * one stays undecoded until it is asked for. */
void         _mat_material_prepare        (MatMaterial *material);
/* The name field of a material in no library yet (no command). */
void         _mat_material_set_entry_name (MatMaterial *material,
                                           const char  *raw);
MatLibrary  *_mat_material_get_library    (MatMaterial *material);
const NresEntry *_mat_material_get_entry  (MatMaterial *material);
/* The content as the core reads it, kept until the material changes:
 * an entry not decoded yet is decoded without making its phase, block
 * and key objects (what a search of every material reads).
 * Returns: (transfer none) (nullable): %NULL for an entry of another
 * type or one that does not decode. */
const Mat0Material *_mat_material_peek_core (MatMaterial *material);
/* The checks (1 << Mat0Check) its current state has lints of, or
 * MAT0_CHECK_DECODE_ERROR's bit when it does not decode; 0 for an entry
 * of another type. Kept until the material changes. */
guint32      _mat_material_get_lint_mask  (MatMaterial *material);
/* The directory and metadata values a command swaps (attr1, attr3,
 * metaA..metaD): sets @field to *@value, stores the old value there and
 * notifies (no history: the caller records it). */
typedef enum {
  MAT_FIELD_ATTR1,
  MAT_FIELD_ATTR3,
  MAT_FIELD_META_A,
  MAT_FIELD_META_B,
  MAT_FIELD_META_C,
  MAT_FIELD_META_D,
} MatField;
guint32      _mat_material_get_field      (MatMaterial *material,
                                           MatField     field);
void         _mat_material_swap_field     (MatMaterial *material,
                                           MatField     field,
                                           guint32     *value);
gint         _mat_material_get_source     (MatMaterial *material,
                                           guint        generation);
/* After a save: the material is entry @index of @archive (generation
 * @generation). */
void         _mat_material_rebase         (MatMaterial       *material,
                                           const NresArchive *archive,
                                           guint              index,
                                           guint              generation);
/* Returns: (transfer full) (nullable): the payload to write, %NULL when
 * the source's bytes are current (never for @generation 0, which is no
 * library's). */
GBytes      *_mat_material_dup_payload    (MatMaterial *material,
                                           guint        generation);
gboolean     _mat_material_check_editable (MatMaterial *material,
                                           GError     **error);
MatHistory  *_mat_material_get_history    (MatMaterial *material);
/* After a command changed anything below the material. */
void         _mat_material_content_changed (MatMaterial *material);
/* Rewrites k0 of every key of @material through @map (old index ->
 * new index, @n_map entries; keys outside 0..n_map-1 are kept) and
 * records the replaced values in @keys / @values for a swap. */
void         _mat_material_remap_keys     (MatMaterial *material,
                                           const guint *map,
                                           guint        n_map,
                                           GPtrArray   *keys,
                                           GArray      *values);

/* Inserts a phase holding @data at @position as one command (keys
 * follow the phases they point at). Returns: (transfer none). */
MatPhase    *_mat_material_insert_phase_data (MatMaterial     *material,
                                              guint            position,
                                              const Mat0Phase *data,
                                              const char      *label);

/* What _mat_material_splice replaces, as one command: with @set_fields
 * attr1..attr3 and the four metadata values; @n_phases_removed phases
 * from @phase_pos by the MatPhases of @phases (when not %NULL), and the
 * same for the blocks. Every object is detached and attached as it goes
 * out or in, so undo puts back the very objects it took out. */
typedef struct {
  gboolean   set_fields;
  guint32    attr1;
  guint32    attr2;
  guint32    attr3;
  guint32    meta[4];
  guint      phase_pos;
  guint      n_phases_removed;
  GPtrArray *phases;    /* MatPhase (owned), or %NULL: phases stay */
  guint      block_pos;
  guint      n_blocks_removed;
  GPtrArray *blocks;    /* MatAnimBlock (owned), or %NULL: blocks stay */
} MatSplice;

/* Pushes @splice as one command labelled @label; takes the arrays (they
 * are %NULL afterwards). */
void         _mat_material_splice         (MatMaterial *material,
                                           MatSplice   *splice,
                                           const char  *label);

/* MatPhase */
MatPhase    *_mat_phase_new               (const Mat0Phase *data);
Mat0Phase   *_mat_phase_get_data          (MatPhase    *phase);
void         _mat_phase_attach            (MatPhase    *phase,
                                           MatMaterial *material,
                                           guint        index);
/* Swaps all 34 bytes with @data and notifies what changed (no history:
 * the caller records it). */
void         _mat_phase_swap_data         (MatPhase    *phase,
                                           Mat0Phase   *data);

/* MatAnimBlock */
MatAnimBlock *_mat_anim_block_new         (const Mat0Block *data);
void         _mat_anim_block_attach       (MatAnimBlock *block,
                                           MatMaterial  *material,
                                           guint         index);
MatMaterial *_mat_anim_block_get_material (MatAnimBlock *block);
/* Sets headerRaw to *@header_raw, stores the old one there and notifies
 * (no history: the caller records it). */
void         _mat_anim_block_swap_header  (MatAnimBlock *block,
                                           guint32      *header_raw);
/* Fills @out (header and keys; keys allocated with g_new). */
void         _mat_anim_block_to_core      (MatAnimBlock *block,
                                           Mat0Block    *out);
/* After a key of @block changed: notifies the period and the material. */
void         _mat_anim_block_content_changed (MatAnimBlock *block);

/* MatKey */
MatKey      *_mat_key_new                 (const Mat0Key *data);
Mat0Key     *_mat_key_get_data            (MatKey       *key);
void         _mat_key_attach              (MatKey       *key,
                                           MatAnimBlock *block,
                                           guint         index);
/* Sets k0 and notifies (no history: the caller records it). */
void         _mat_key_swap_k0             (MatKey       *key,
                                           guint16      *value);
/* Sets k1 (the key's time) and notifies k1 only (no history; the caller
 * records it and calls _mat_anim_block_content_changed once). */
void         _mat_key_swap_k1             (MatKey       *key,
                                           guint16      *value);

/* MatModelEntry (made and kept up to date by its MatModelArchive) */
/* An entry of @archive (not referenced: the archive detaches it when it
 * goes) over the slots @mesh and @wear (either may be %NULL, not both).
 * Returns: (transfer full). */
MatModelEntry  *_mat_model_entry_new       (MatArchive     *archive,
                                            MatArchiveSlot *mesh,
                                            MatArchiveSlot *wear);
/* Returns: (transfer none) (nullable). */
MatArchiveSlot *_mat_model_entry_get_mesh_slot (MatModelEntry *entry);
MatArchiveSlot *_mat_model_entry_get_wear_slot (MatModelEntry *entry);
/* Reads the wear again from its slot's payload, then notifies "n-rows"
 * (when it changed) and emits "changed". */
void            _mat_model_entry_reload_wear   (MatModelEntry *entry);
/* Whether the wear table's offsets are no longer where its slot is in
 * the file (after a save). */
gboolean        _mat_model_entry_wear_moved    (MatModelEntry *entry);
void            _mat_model_entry_detach        (MatModelEntry *entry);

/* The JSON texts of the editor (mat-material-json.c) */
/* The content of @text: the material's entry object or the phase object;
 * @where names that place in messages.
 * Returns: (transfer full) (nullable): the node, or %NULL with @error. */
JsonNode    *_mat_json_parse_item         (const char   *text,
                                           gssize        length,
                                           MatJsonKind  *kind,
                                           const char  **where,
                                           GError      **error);

G_END_DECLS
