/* mat-query.h - what the material list's search asks of each material
 *
 * A query is words separated by spaces; a material matches when it
 * matches every word. A plain word matches names that contain it,
 * ignoring case, as the search always did. A word KEY:VALUE asks about
 * the content (a "phase" term matches when some phase matches it, a
 * "block" term when some animation block does):
 *
 *   name:TEXT         the name contains TEXT
 *   texture:NAME      a phase's texture is NAME (ASCII case ignored, as
 *                     the game compares names); * stands for any run of
 *                     characters (texture:ROCK*, texture:* for any);
 *                     texture:none, an untextured phase
 *   blend:MODE        attr1's blend index: opaque, see-through, additive,
 *                     modulate, double-modulate, unknown (5..15) or 0..15
 *   bit:N             bit N (0..31) of attr1 is set
 *   attr1:RANGE       attr1 itself; version:RANGE the payload version (attr2)
 *   opacity:RANGE     a phase's opacity p3 in per cent (opacity:<100)
 *   mode:MODE         a block's mode: loop, ping-pong, once, random,
 *                     unknown (4..7) or 0..7
 *   interp:BITS       a block's interpolation mask: self-light, diffuse,
 *                     specular, emissive or opacity (that bit set), none
 *                     (0), or a RANGE of the mask (interp:>0)
 *   phases:RANGE      the number of phases; blocks:RANGE of blocks
 *   keys:RANGE        the number of keys of all blocks together
 *   period:RANGE      a block's period in ms
 *   lint:KIND         a lint of that kind (mat0_check_name: zero-period,
 *                     key-time-order, ...; empty-interval is key-time-order;
 *                     any for every kind, decode-error for an entry that
 *                     does not decode)
 *   worn:MODEL        a model whose name contains MODEL wears it (the
 *                     game folder's index answers: mat_query_set_worn_func;
 *                     without one it matches nothing)
 *
 * RANGE is N, <N, <=N, >N, >=N, =N or N..M (both ends included); numbers
 * are decimal or 0x hex, an opacity may end in %. A leading - negates a
 * word (-texture:* has no textured phase); double quotes keep spaces in
 * a value (texture:"MY ROCK.0"). Keys ignore case; a word whose part
 * before the colon is no key is a plain word. Only MAT0 entries match a
 * KEY:VALUE word (before its negation); a content term does not match a
 * material that does not decode, lint:decode-error and the directory's
 * attr1, bit, blend and version aside.
 */
#pragma once

#include <glib-object.h>

#include "mat-material.h"

G_BEGIN_DECLS

typedef struct _MatQuery MatQuery;

#define MAT_TYPE_QUERY (mat_query_get_type ())
GType         mat_query_get_type        (void) G_GNUC_CONST;

/* Reads @text (UTF-8). A word whose value cannot be read fails with
 * MAT_MODEL_ERROR_QUERY_INVALID, naming the word and what was expected
 * ("“opacity:<x”: expected a number, ..."). An empty text is a query
 * that every entry matches.
 * Returns: (transfer full): the query, or %NULL with @error. */
MatQuery     *mat_query_new             (const char   *text,
                                         GError      **error);
MatQuery     *mat_query_ref             (MatQuery     *self);
void          mat_query_unref           (MatQuery     *self);

/* No word: everything matches. */
gboolean      mat_query_is_empty        (MatQuery     *self);
/* Only plain words, none negated: the query looks at names alone. */
gboolean      mat_query_is_names_only   (MatQuery     *self);
/* Whether every material @self matches also matches @looser, known
 * without looking at them (both names only, each word of @looser inside
 * a word of @self): a search typed on needs to look only at what
 * matched before. */
gboolean      mat_query_narrows         (MatQuery     *self,
                                         MatQuery     *looser);
/* A worn: word is in it. */
gboolean      mat_query_needs_worn      (MatQuery     *self);

/* Whether a model whose name contains @model (case-folded UTF-8) wears
 * @material: what answers worn: words. */
typedef gboolean (*MatQueryWornFunc) (MatMaterial *material,
                                      const char  *model,
                                      gpointer     user_data);
/* Without one, a worn: word matches nothing. */
void          mat_query_set_worn_func   (MatQuery         *self,
                                         MatQueryWornFunc  func,
                                         gpointer          user_data);

gboolean      mat_query_matches         (MatQuery     *self,
                                         MatMaterial  *material);

/* The names KEY:VALUE words take for blend indices 0..4, modes 0..3 and
 * the interpolation bits 0..4 (0x01 .. 0x10): "see-through", "ping-pong",
 * "self-light". Returns: (transfer none) (nullable). */
const char   *mat_query_blend_id        (guint         index);
const char   *mat_query_mode_id         (guint         mode);
const char   *mat_query_interp_id       (guint         bit);

/* @value as a VALUE of a word: as it is when it holds no space, quote
 * or backslash... only spaces and quotes need quoting, as in
 * texture:"MY ROCK.0". Returns: (transfer full). */
char         *mat_query_quote           (const char   *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatQuery, mat_query_unref)

G_END_DECLS
