/* mat-drafts.c - unsaved edits kept as drafts beside the user's data
 *
 * The main thread follows the archives (their history, "dirty", "file"
 * and "etag") and turns what changed into operations: write a draft,
 * remove one of this editor, remove one left by another. They run one at
 * a time, in order, in a GTask thread; everything on disk (this editor's
 * index, the folders of editors that ended) is touched only under
 * @lock, by that thread or by mat_draft_store_flush_sync().
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mat-drafts.h"
#include "mat-file.h"
#include "mat-archive-private.h"
#include "mat-library.h"
#include "mat-model-archive.h"
#include "mat-texture-library.h"

#define DEFAULT_DELAY_MS 2000
#define INDEX_NAME       "index.json"
#define LOCK_NAME        "lock"
#define DRAFT_SUFFIX     ".draft"
#define INDEX_FORMAT     1

/* GTask source tags (function pointers are not data pointers in ISO C). */
static char restore_tag[] = "mat_draft_restore_async";
static char op_tag[] = "mat_draft_store op";
static char find_tag[] = "mat_draft_store_find_left_async";

GType
mat_draft_disk_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_DRAFT_DISK_SAME, "MAT_DRAFT_DISK_SAME", "same" },
        { MAT_DRAFT_DISK_CHANGED, "MAT_DRAFT_DISK_CHANGED", "changed" },
        { MAT_DRAFT_DISK_MISSING, "MAT_DRAFT_DISK_MISSING", "missing" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatDraftDisk"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* ---- one record of an index ------------------------------------------- */

typedef struct {
  char    *id;
  char    *kind;
  char    *file;       /* URI */
  char    *etag;       /* (nullable) */
  char    *time;       /* ISO 8601 */
  char    *owner;      /* (nullable) URI */
  char    *draft;      /* the draft's file name in the folder */
  guint64  size;
  char    *sha256;
  guint    version;    /* N of ID.N.draft */
} Record;

static void
record_free (Record *record)
{
  if (record == NULL)
    return;
  g_free (record->id);
  g_free (record->kind);
  g_free (record->file);
  g_free (record->etag);
  g_free (record->time);
  g_free (record->owner);
  g_free (record->draft);
  g_free (record->sha256);
  g_free (record);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Record, record_free)

static Record *
record_copy (const Record *record)
{
  Record *copy = g_new0 (Record, 1);

  copy->id = g_strdup (record->id);
  copy->kind = g_strdup (record->kind);
  copy->file = g_strdup (record->file);
  copy->etag = g_strdup (record->etag);
  copy->time = g_strdup (record->time);
  copy->owner = g_strdup (record->owner);
  copy->draft = g_strdup (record->draft);
  copy->size = record->size;
  copy->sha256 = g_strdup (record->sha256);
  copy->version = record->version;
  return copy;
}

static gint
find_record (GPtrArray  *records,
             const char *id)
{
  for (guint i = 0; i < records->len; i++)
    if (g_str_equal (((Record *) g_ptr_array_index (records, i))->id, id))
      return (gint) i;
  return -1;
}

static void
add_string_or_null (JsonBuilder *builder,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static GBytes *
index_to_bytes (GPtrArray *records)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gsize length = 0;
  char *text;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_int_value (builder, INDEX_FORMAT);
  json_builder_set_member_name (builder, "drafts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < records->len; i++)
    {
      Record *record = g_ptr_array_index (records, i);

      json_builder_begin_object (builder);
      add_string_or_null (builder, "id", record->id);
      add_string_or_null (builder, "kind", record->kind);
      add_string_or_null (builder, "file", record->file);
      add_string_or_null (builder, "etag", record->etag);
      add_string_or_null (builder, "time", record->time);
      add_string_or_null (builder, "owner", record->owner);
      add_string_or_null (builder, "draft", record->draft);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, (gint64) record->size);
      add_string_or_null (builder, "sha256", record->sha256);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);
  return g_bytes_new_take (text, length);
}

/* A string member, %NULL when missing, null or not a string (@required:
 * an error then). */
static gboolean
member_string (JsonObject  *object,
               const char  *name,
               gboolean     required,
               char       **out)
{
  JsonNode *node = json_object_get_member (object, name);

  *out = NULL;
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    {
      *out = g_strdup (json_node_get_string (node));
      return TRUE;
    }
  return !required && (node == NULL || JSON_NODE_HOLDS_NULL (node));
}

static gboolean
is_plain_name (const char *name)
{
  if (name == NULL || name[0] == '\0' || name[0] == '.')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '.')
      return FALSE;
  return TRUE;
}

static Record *
record_from_json (JsonNode  *node,
                  guint      index,
                  GError   **error)
{
  g_autoptr(Record) record = g_new0 (Record, 1);
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonNode *size;
  const char *dot;

  if (object == NULL ||
      !member_string (object, "id", TRUE, &record->id) ||
      !member_string (object, "kind", TRUE, &record->kind) ||
      !member_string (object, "file", TRUE, &record->file) ||
      !member_string (object, "etag", FALSE, &record->etag) ||
      !member_string (object, "time", TRUE, &record->time) ||
      !member_string (object, "owner", FALSE, &record->owner) ||
      !member_string (object, "draft", TRUE, &record->draft) ||
      !member_string (object, "sha256", TRUE, &record->sha256))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "drafts[%u]: expected an object with the strings id, kind, file, time, draft and sha256",
                   index);
      return NULL;
    }
  size = json_object_get_member (object, "size");
  if (size == NULL || !JSON_NODE_HOLDS_VALUE (size) ||
      json_node_get_value_type (size) != G_TYPE_INT64 || json_node_get_int (size) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "drafts[%u].size: expected a whole number of bytes", index);
      return NULL;
    }
  record->size = (guint64) json_node_get_int (size);
  if (!is_plain_name (record->id) || !is_plain_name (record->draft) ||
      !g_str_has_suffix (record->draft, DRAFT_SUFFIX) || strlen (record->sha256) != 64)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "drafts[%u]: a malformed id, draft name or sha256", index);
      return NULL;
    }
  /* ID.N.draft */
  dot = strchr (record->draft + strlen (record->id), '.');
  if (g_str_has_prefix (record->draft, record->id) && dot == record->draft + strlen (record->id))
    record->version = (guint) g_ascii_strtoull (dot + 1, NULL, 10);
  return g_steal_pointer (&record);
}

/* Returns: (transfer full) (element-type Record): the records of @bytes,
 * or %NULL with @error. */
static GPtrArray *
index_from_bytes (GBytes  *bytes,
                  GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  JsonNode *root;
  JsonObject *object;
  JsonNode *drafts;
  JsonArray *array;

  if (!json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                   (gssize) g_bytes_get_size (bytes), error))
    return NULL;
  root = json_parser_get_root (parser);
  object = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (object == NULL || json_object_get_int_member_with_default (object, "format", 0) != INDEX_FORMAT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "expected an object with \"format\": %d", INDEX_FORMAT);
      return NULL;
    }
  drafts = json_object_get_member (object, "drafts");
  if (drafts == NULL || !JSON_NODE_HOLDS_ARRAY (drafts))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "drafts: expected an array");
      return NULL;
    }
  array = json_node_get_array (drafts);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local_error = NULL;
      Record *record = record_from_json (json_array_get_element (array, i), i, &local_error);

      /* one broken record does not hide the others */
      if (record == NULL)
        g_message ("Drafts index: %s", local_error->message);
      else
        g_ptr_array_add (records, record);
    }
  return g_steal_pointer (&records);
}

/* Writes the index of @folder: @records, or no index at all when there
 * are none. */
static gboolean
write_index (const char  *folder,
             GPtrArray   *records,
             GError     **error)
{
  g_autofree char *path = g_build_filename (folder, INDEX_NAME, NULL);
  g_autoptr(GBytes) bytes = NULL;

  if (records->len == 0)
    {
      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not remove %s: %s"), path, g_strerror (saved));
          return FALSE;
        }
      return TRUE;
    }
  bytes = index_to_bytes (records);
  return mat_file_replace (path, bytes, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, error);
}

/* Removes what a drafts folder holds (its index, lock and drafts) and
 * the folder; anything else in it stays, and so does the folder then. */
static void
remove_folder (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_equal (name, INDEX_NAME) || g_str_equal (name, LOCK_NAME) ||
        g_str_has_suffix (name, DRAFT_SUFFIX))
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        g_unlink (path);
      }
  g_rmdir (folder);
}

/* Opens (creating) and locks the lock of @folder without waiting.
 * Returns: the descriptor, or -1: held by a running editor (@busy) or an
 * error (@error). */
static int
lock_folder (const char  *folder,
             gboolean    *busy,
             GError     **error)
{
  g_autofree char *path = g_build_filename (folder, LOCK_NAME, NULL);
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  int saved;

  *busy = FALSE;
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not open %s: %s"), path, g_strerror (saved));
      return -1;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      saved = errno;
      close (fd);
      if (saved == EWOULDBLOCK)
        {
          *busy = TRUE;
          return -1;
        }
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not lock %s: %s"), path, g_strerror (saved));
      return -1;
    }
  return fd;
}

/* ---- MatDraft ------------------------------------------------------------ */

struct _MatDraft
{
  GObject       parent_instance;

  Record       *record;
  char         *folder;     /* the session folder it is in */
  GFile        *file;
  GFile        *owner;      /* (nullable) */
  GDateTime    *time;
  MatDraftDisk  disk;
};

G_DEFINE_FINAL_TYPE (MatDraft, mat_draft, G_TYPE_OBJECT)

static void
mat_draft_finalize (GObject *object)
{
  MatDraft *self = MAT_DRAFT (object);

  g_clear_pointer (&self->record, record_free);
  g_clear_pointer (&self->folder, g_free);
  g_clear_object (&self->file);
  g_clear_object (&self->owner);
  g_clear_pointer (&self->time, g_date_time_unref);

  G_OBJECT_CLASS (mat_draft_parent_class)->finalize (object);
}

static void
mat_draft_class_init (MatDraftClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mat_draft_finalize;
}

static void
mat_draft_init (MatDraft *self)
{
}

/* Looks at the draft's file now (blocking: one stat). */
static MatDraftDisk
query_disk (GFile      *file,
            const char *etag)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  g_autofree char *now = path != NULL ? mat_file_query_etag (path, &error) : NULL;

  if (now == NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ? MAT_DRAFT_DISK_MISSING
                                                                      : MAT_DRAFT_DISK_CHANGED;
  return g_strcmp0 (now, etag) == 0 ? MAT_DRAFT_DISK_SAME : MAT_DRAFT_DISK_CHANGED;
}

/* Returns: (transfer full) (nullable): the draft of @record in @folder,
 * %NULL when its file or time do not read. */
static MatDraft *
draft_new (const Record *record,
           const char   *folder)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_iso8601 (record->time, NULL);
  g_autofree char *scheme = g_uri_parse_scheme (record->file);
  MatDraft *self;

  if (time == NULL || scheme == NULL)
    {
      g_message ("Drafts index in %s: draft %s has no valid file or time", folder, record->id);
      return NULL;
    }
  self = g_object_new (MAT_TYPE_DRAFT, NULL);
  self->record = record_copy (record);
  self->folder = g_strdup (folder);
  self->file = g_file_new_for_uri (record->file);
  self->owner = record->owner != NULL ? g_file_new_for_uri (record->owner) : NULL;
  self->time = g_steal_pointer (&time);
  self->disk = query_disk (self->file, record->etag);
  return self;
}

const char *
mat_draft_get_id (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->record->id;
}

const char *
mat_draft_get_kind (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->record->kind;
}

GFile *
mat_draft_get_file (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->file;
}

const char *
mat_draft_get_etag (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->record->etag;
}

GDateTime *
mat_draft_get_time (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->time;
}

GFile *
mat_draft_get_owner (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);

  return self->owner;
}

guint64
mat_draft_get_size (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), 0);

  return self->record->size;
}

MatDraftDisk
mat_draft_get_disk (MatDraft *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT (self), MAT_DRAFT_DISK_SAME);

  return self->disk;
}

typedef struct {
  MatDraftable *archive;
  GBytes       *bytes;
} Restored;

static void
restored_free (Restored *restored)
{
  g_clear_object (&restored->archive);
  g_clear_pointer (&restored->bytes, g_bytes_unref);
  g_free (restored);
}

/* The archive a draft of @kind restores, or G_TYPE_INVALID. */
static GType
archive_type_of_kind (const char *kind)
{
  if (g_str_equal (kind, MAT_DRAFT_KIND_MATERIALS))
    return MAT_TYPE_LIBRARY;
  if (g_str_equal (kind, MAT_DRAFT_KIND_TEXTURES))
    return MAT_TYPE_TEXTURE_LIBRARY;
  if (g_str_equal (kind, MAT_DRAFT_KIND_MODELS))
    return MAT_TYPE_MODEL_ARCHIVE;
  return G_TYPE_INVALID;
}

static void
restore_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  MatDraft *self = source_object;
  g_autofree char *path = g_build_filename (self->folder, self->record->draft, NULL);
  g_autofree char *name = g_file_get_parse_name (self->file);
  g_autofree char *sha256 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mat_file_read_library (path, NULL, NULL, cancellable, &error);
  Restored *restored;
  MatDraftable *archive = NULL;
  GType type;

  if (bytes == NULL)
    {
      g_task_return_new_error (task, error->domain, error->code,
                               _("The draft of %s could not be read: %s"), name, error->message);
      return;
    }
  sha256 = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  if (g_bytes_get_size (bytes) != self->record->size || g_strcmp0 (sha256, self->record->sha256) != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("The draft of %s is damaged: its bytes are not the ones its index names."),
                               name);
      return;
    }

  type = archive_type_of_kind (self->record->kind);
  if (type != G_TYPE_INVALID)
    archive = MAT_DRAFTABLE (_mat_archive_new_restored (type, bytes, self->file, self->record->etag,
                                                        &error));
  else
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                 _("This version of the editor cannot open drafts of the kind “%s”."),
                 self->record->kind);
  if (archive == NULL)
    {
      g_task_return_new_error (task, error->domain, error->code,
                               _("The draft of %s could not be opened: %s"), name, error->message);
      return;
    }

  restored = g_new0 (Restored, 1);
  restored->archive = archive;
  restored->bytes = g_steal_pointer (&bytes);
  g_task_return_pointer (task, restored, (GDestroyNotify) restored_free);
}

void
mat_draft_restore_async (MatDraft            *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MAT_IS_DRAFT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, restore_tag);
  g_task_run_in_thread (task, restore_thread);
}

MatDraftable *
mat_draft_restore_finish (MatDraft      *self,
                          GAsyncResult  *result,
                          GBytes       **bytes,
                          GError       **error)
{
  Restored *restored;
  MatDraftable *archive;

  g_return_val_if_fail (MAT_IS_DRAFT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  restored = g_task_propagate_pointer (G_TASK (result), error);
  if (restored == NULL)
    return NULL;
  archive = g_steal_pointer (&restored->archive);
  if (bytes != NULL)
    *bytes = g_steal_pointer (&restored->bytes);
  restored_free (restored);
  return archive;
}

/* ---- MatDraftStore -------------------------------------------------------- */

/* The folder of an editor that ended, locked by this store. */
typedef struct {
  char      *folder;
  int        fd;
  GPtrArray *records;   /* Record */
} Left;

static void
left_free (Left *left)
{
  if (left->fd >= 0)
    close (left->fd);
  g_free (left->folder);
  g_ptr_array_unref (left->records);
  g_free (left);
}

typedef struct {
  MatDraftStore *store;
  MatDraftable  *archive;   /* weak */
  MatHistory    *history;   /* a reference, for the handler */
  char          *id;
  char          *owner;     /* (nullable) URI */
  gulong         history_handler;
  gulong         notify_handler;
  guint64        changes;   /* bumped with every change */
  guint64        written;   /* @changes of the last draft written */
  MatDraft      *replaces;  /* (nullable) removed after the first write */
  gboolean       on_disk;   /* a draft was asked to be written, not removed */
  gboolean       waiting;   /* changed since: waits for the timer */
} Tracked;

typedef enum {
  OP_WRITE,
  OP_REMOVE,
  OP_REMOVE_LEFT,
} OpKind;

typedef struct {
  OpKind        kind;
  Record       *record;    /* WRITE: what the index says (size, sha256,
                              draft, time filled in); REMOVE: the id */
  MatSavePlan  *plan;      /* WRITE */
  guint64       changes;   /* WRITE: of the archive, at the plan */
  MatDraft     *left;      /* REMOVE_LEFT */
  gboolean      done;      /* under the lock: performed or dropped */
  GError       *error;
} Op;

static void
op_free (Op *op)
{
  record_free (op->record);
  g_clear_pointer (&op->plan, mat_save_plan_free);
  g_clear_object (&op->left);
  g_clear_error (&op->error);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Op, op_free)

struct _MatDraftStore
{
  GObject      parent_instance;

  GFile       *folder;
  char        *root;          /* its path */
  char        *session;       /* this editor's folder name */
  char        *session_dir;
  guint        delay_ms;
  GHashTable  *tracked;       /* MatDraftable* -> Tracked* */
  guint        timer;
  GQueue       ops;           /* Op, waiting */
  Op          *running;       /* (nullable) in the worker */
  char        *last_error;
  gboolean     busy;
  gboolean     closed;

  /* under @lock: the disk */
  GMutex       lock;
  gboolean     frozen;        /* nothing more is written or removed */
  int          session_fd;    /* the lock of this editor's folder, -1 */
  GPtrArray   *records;       /* Record: this editor's index */
  GPtrArray   *left;          /* Left */
};

G_DEFINE_FINAL_TYPE (MatDraftStore, mat_draft_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FOLDER,
  PROP_DELAY,
  PROP_BUSY,
  PROP_LAST_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void run_next (MatDraftStore *self);

GFile *
mat_draft_store_get_default_folder (void)
{
  return g_file_new_build_filename (g_get_user_data_dir (), "parkan-matedit", "drafts", NULL);
}

static void
update_busy (MatDraftStore *self)
{
  gboolean busy = self->timer != 0 || self->running != NULL || !g_queue_is_empty (&self->ops);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_last_error (MatDraftStore *self,
                const char    *message)
{
  if (g_strcmp0 (self->last_error, message) == 0)
    return;
  /* said once, not with every draft that fails the same way */
  if (message != NULL)
    g_message ("Drafts of unsaved changes: %s", message);
  g_free (self->last_error);
  self->last_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_ERROR]);
}

/* ---- the disk (under the lock) ------------------------------------------ */

static gboolean
ensure_session (MatDraftStore  *self,
                GError        **error)
{
  gboolean busy;
  int saved;

  if (self->session_fd >= 0)
    return TRUE;
  if (g_mkdir_with_parents (self->root, 0700) != 0)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not make the folder %s: %s"), self->root, g_strerror (saved));
      return FALSE;
    }
  if (g_mkdir (self->session_dir, 0700) != 0 && errno != EEXIST)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not make the folder %s: %s"), self->session_dir, g_strerror (saved));
      return FALSE;
    }
  self->session_fd = lock_folder (self->session_dir, &busy, error);
  if (self->session_fd < 0 && busy)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                 _("Another editor holds the folder %s"), self->session_dir);
  return self->session_fd >= 0;
}

static char *
now_iso8601 (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format_iso8601 (now);
}

static gboolean
perform_write (MatDraftStore  *self,
               Op             *op,
               GError        **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(Record) old = NULL;
  g_autofree char *path = NULL;
  Record *record;
  gint index;

  if (!ensure_session (self, error))
    return FALSE;
  bytes = mat_save_plan_write (op->plan, error);
  if (bytes == NULL)
    return FALSE;

  record = op->record;
  index = find_record (self->records, record->id);
  if (index >= 0)
    old = g_ptr_array_steal_index (self->records, (guint) index);
  record->version = old != NULL ? old->version + 1 : 1;
  g_free (record->draft);
  record->draft = g_strdup_printf ("%s.%u" DRAFT_SUFFIX, record->id, record->version);
  g_free (record->sha256);
  record->sha256 = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  record->size = g_bytes_get_size (bytes);
  g_free (record->time);
  record->time = now_iso8601 ();

  /* the bytes first, then the index naming them, then the old bytes go */
  path = g_build_filename (self->session_dir, record->draft, NULL);
  if (!mat_file_replace (path, bytes, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, error))
    {
      if (old != NULL)
        g_ptr_array_add (self->records, g_steal_pointer (&old));
      return FALSE;
    }
  g_ptr_array_add (self->records, record_copy (record));
  if (!write_index (self->session_dir, self->records, error))
    {
      g_ptr_array_remove_index (self->records, self->records->len - 1);
      if (old != NULL)
        g_ptr_array_add (self->records, g_steal_pointer (&old));
      g_unlink (path);
      return FALSE;
    }
  if (old != NULL)
    {
      g_autofree char *old_path = g_build_filename (self->session_dir, old->draft, NULL);

      g_unlink (old_path);
    }
  return TRUE;
}

/* Removes the record @id of @records in @folder and its bytes. */
static gboolean
remove_record (const char  *folder,
               GPtrArray   *records,
               const char  *id,
               GError     **error)
{
  g_autoptr(Record) record = NULL;
  g_autofree char *path = NULL;
  gint index = find_record (records, id);

  if (index < 0)
    return TRUE;
  record = g_ptr_array_steal_index (records, (guint) index);
  if (!write_index (folder, records, error))
    {
      g_ptr_array_add (records, g_steal_pointer (&record));
      return FALSE;
    }
  path = g_build_filename (folder, record->draft, NULL);
  g_unlink (path);
  return TRUE;
}

static gboolean
perform_remove_left (MatDraftStore  *self,
                     MatDraft       *draft,
                     GError        **error)
{
  for (guint i = 0; i < self->left->len; i++)
    {
      Left *left = g_ptr_array_index (self->left, i);

      if (!g_str_equal (left->folder, draft->folder))
        continue;
      if (!remove_record (left->folder, left->records, draft->record->id, error))
        return FALSE;
      if (left->records->len == 0)
        {
          /* the editor's last draft: its folder goes */
          remove_folder (left->folder);
          g_ptr_array_remove_index (self->left, i);
        }
      return TRUE;
    }
  return TRUE;
}

static gboolean
perform (MatDraftStore  *self,
         Op             *op,
         GError        **error)
{
  switch (op->kind)
    {
    case OP_WRITE:
      return perform_write (self, op, error);
    case OP_REMOVE:
      return self->session_fd < 0 || remove_record (self->session_dir, self->records, op->record->id, error);
    case OP_REMOVE_LEFT:
      return perform_remove_left (self, op->left, error);
    default:
      g_assert_not_reached ();
    }
}

/* ---- the operations --------------------------------------------------- */

static void
op_thread (GTask        *task,
           gpointer      source_object,
           gpointer      task_data,
           GCancellable *cancellable)
{
  MatDraftStore *self = source_object;
  Op *op = task_data;

  g_mutex_lock (&self->lock);
  if (!self->frozen && !op->done)
    perform (self, op, &op->error);
  op->done = TRUE;
  g_mutex_unlock (&self->lock);
  g_task_return_boolean (task, TRUE);
}

static Tracked *
find_tracked (MatDraftStore *self,
              const char    *id)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->tracked);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (g_str_equal (((Tracked *) value)->id, id))
      return value;
  return NULL;
}

static void queue_op (MatDraftStore *self, Op *op);

static Op *
op_new_remove_left (MatDraft *draft)
{
  Op *op = g_new0 (Op, 1);

  op->kind = OP_REMOVE_LEFT;
  op->left = g_object_ref (draft);
  return op;
}

/* Back on the main thread. */
static void
op_done (MatDraftStore *self,
         Op            *op)
{
  Tracked *tracked;

  if (self->frozen)
    return;
  if (op->kind == OP_WRITE)
    {
      tracked = find_tracked (self, op->record->id);
      if (op->error != NULL)
        {
          set_last_error (self, op->error->message);
          return;
        }
      set_last_error (self, NULL);
      if (tracked != NULL)
        {
          tracked->written = MAX (tracked->written, op->changes);
          /* the restored draft is kept here now: the old one goes */
          if (tracked->replaces != NULL)
            {
              queue_op (self, op_new_remove_left (tracked->replaces));
              g_clear_object (&tracked->replaces);
            }
        }
    }
  else if (op->error != NULL)
    set_last_error (self, op->error->message);
}

static void
op_done_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);
  Op *op = g_task_get_task_data (G_TASK (result));

  if (op == self->running)
    self->running = NULL;
  op_done (self, op);
  run_next (self);
  update_busy (self);
}

static void
run_next (MatDraftStore *self)
{
  g_autoptr(GTask) task = NULL;
  Op *op;

  if (self->running != NULL || self->frozen)
    return;
  op = g_queue_pop_head (&self->ops);
  if (op == NULL)
    return;
  self->running = op;
  task = g_task_new (self, NULL, op_done_cb, NULL);
  g_task_set_source_tag (task, op_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);
  g_task_run_in_thread (task, op_thread);
}

static void
queue_op (MatDraftStore *self,
          Op            *op)
{
  if (self->frozen)
    {
      op_free (op);
      return;
    }
  /* a newer draft of the same archive supersedes one still waiting (a
   * slow disk does not pile plans up) */
  if (op->kind == OP_WRITE)
    for (GList *l = self->ops.head; l != NULL;)
      {
        GList *next = l->next;
        Op *waiting = l->data;

        if (waiting->kind == OP_WRITE && g_str_equal (waiting->record->id, op->record->id))
          {
            g_queue_delete_link (&self->ops, l);
            op_free (waiting);
          }
        l = next;
      }
  g_queue_push_tail (&self->ops, op);
  run_next (self);
  update_busy (self);
}

static char *
dup_uri (GFile *file)
{
  return file != NULL ? g_file_get_uri (file) : NULL;
}

/* The draft of @tracked, as a plan made now. */
static Op *
op_new_write (Tracked  *tracked,
              GError  **error)
{
  g_autoptr(MatSavePlan) plan = mat_draftable_plan_save (tracked->archive, error);
  Op *op;

  if (plan == NULL)
    return NULL;
  op = g_new0 (Op, 1);
  op->kind = OP_WRITE;
  op->plan = g_steal_pointer (&plan);
  op->changes = tracked->changes;
  op->record = g_new0 (Record, 1);
  op->record->id = g_strdup (tracked->id);
  op->record->kind = g_strdup (mat_draftable_get_kind (tracked->archive));
  op->record->file = dup_uri (mat_draftable_get_file (tracked->archive));
  op->record->etag = g_strdup (mat_draftable_get_etag (tracked->archive));
  op->record->owner = g_strdup (tracked->owner);
  return op;
}

static Op *
op_new_remove (const char *id)
{
  Op *op = g_new0 (Op, 1);

  op->kind = OP_REMOVE;
  op->record = g_new0 (Record, 1);
  op->record->id = g_strdup (id);
  return op;
}

/* What @tracked's draft should be now: written (unsaved edits) or gone. */
static void
update_tracked (MatDraftStore *self,
                Tracked       *tracked)
{
  g_autoptr(GError) error = NULL;
  Op *op;

  tracked->waiting = FALSE;
  if (mat_draftable_get_dirty (tracked->archive) && mat_draftable_get_file (tracked->archive) != NULL)
    {
      if (tracked->written == tracked->changes && tracked->on_disk)
        return;
      op = op_new_write (tracked, &error);
      if (op == NULL)
        {
          set_last_error (self, error->message);
          return;
        }
      tracked->on_disk = TRUE;
      queue_op (self, op);
    }
  else if (tracked->on_disk)
    {
      tracked->on_disk = FALSE;
      queue_op (self, op_new_remove (tracked->id));
    }
}

static gboolean
timer_cb (gpointer user_data)
{
  MatDraftStore *self = user_data;
  GHashTableIter iter;
  gpointer value;

  self->timer = 0;
  g_hash_table_iter_init (&iter, self->tracked);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Tracked *) value)->waiting)
      update_tracked (self, value);
  update_busy (self);
  return G_SOURCE_REMOVE;
}

/* An edit: the draft follows within the delay of the first one since
 * the last draft (later edits do not put it off). */
static void
tracked_changed (Tracked *tracked)
{
  MatDraftStore *self = tracked->store;

  tracked->changes++;
  if (!mat_draftable_get_dirty (tracked->archive))
    {
      /* saved, or undone to the saved state: no draft, at once */
      update_tracked (self, tracked);
      return;
    }
  tracked->waiting = TRUE;
  if (self->timer == 0 && !self->frozen)
    self->timer = g_timeout_add (self->delay_ms, timer_cb, self);
  update_busy (self);
}

static void
history_changed_cb (MatHistory *history,
                    Tracked    *tracked)
{
  tracked_changed (tracked);
}

static void
archive_notify_cb (GObject    *object,
                   GParamSpec *pspec,
                   Tracked    *tracked)
{
  if (g_str_equal (pspec->name, "dirty") || g_str_equal (pspec->name, "file") ||
      g_str_equal (pspec->name, "etag"))
    tracked_changed (tracked);
}

static void archive_gone_cb (gpointer data, GObject *where_the_object_was);

/* Stops following @tracked (what is on disk stays). */
static void
tracked_free (Tracked  *tracked)
{
  if (tracked->archive != NULL)
    {
      g_clear_signal_handler (&tracked->notify_handler, tracked->archive);
      g_object_weak_unref (G_OBJECT (tracked->archive), archive_gone_cb, tracked);
    }
  g_clear_signal_handler (&tracked->history_handler, tracked->history);
  g_clear_object (&tracked->history);
  g_clear_object (&tracked->replaces);
  g_free (tracked->id);
  g_free (tracked->owner);
  g_free (tracked);
}

static void
discard_tracked (MatDraftStore *self,
                 Tracked       *tracked)
{
  if (tracked->on_disk)
    queue_op (self, op_new_remove (tracked->id));
  if (tracked->replaces != NULL)
    queue_op (self, op_new_remove_left (tracked->replaces));
}

static void
archive_gone_cb (gpointer  data,
                 GObject  *where_the_object_was)
{
  Tracked *tracked = data;
  MatDraftStore *self = tracked->store;

  /* an archive that goes without a save is discarded */
  tracked->archive = NULL;
  tracked->notify_handler = 0;
  discard_tracked (self, tracked);
  g_hash_table_remove (self->tracked, where_the_object_was);
}

static Tracked *
ensure_tracked (MatDraftStore *self,
                MatDraftable  *archive)
{
  Tracked *tracked = g_hash_table_lookup (self->tracked, archive);
  g_autofree char *uuid = NULL;

  if (tracked != NULL)
    return tracked;
  tracked = g_new0 (Tracked, 1);
  tracked->store = self;
  tracked->archive = archive;
  uuid = g_uuid_string_random ();
  tracked->id = g_strdup (uuid);
  tracked->history = g_object_ref (mat_draftable_get_history (archive));
  tracked->history_handler = g_signal_connect (tracked->history, "changed",
                                               G_CALLBACK (history_changed_cb), tracked);
  tracked->notify_handler = g_signal_connect (archive, "notify", G_CALLBACK (archive_notify_cb),
                                              tracked);
  g_object_weak_ref (G_OBJECT (archive), archive_gone_cb, tracked);
  g_hash_table_insert (self->tracked, archive, tracked);
  return tracked;
}

void
mat_draft_store_track (MatDraftStore *self,
                       MatDraftable  *archive,
                       GFile         *owner)
{
  Tracked *tracked;
  g_autofree char *uri = NULL;
  gboolean known;

  g_return_if_fail (MAT_IS_DRAFT_STORE (self));
  g_return_if_fail (MAT_IS_DRAFTABLE (archive));
  g_return_if_fail (owner == NULL || G_IS_FILE (owner));

  if (self->closed)
    return;
  known = g_hash_table_contains (self->tracked, archive);
  tracked = ensure_tracked (self, archive);
  uri = dup_uri (owner);
  if (known && g_strcmp0 (uri, tracked->owner) == 0)
    return;
  g_free (tracked->owner);
  tracked->owner = g_steal_pointer (&uri);
  /* unsaved edits already (a restored draft): a draft after the delay */
  if (mat_draftable_get_dirty (archive) || tracked->on_disk)
    tracked_changed (tracked);
}

void
mat_draft_store_discard_archive (MatDraftStore *self,
                                 MatDraftable  *archive)
{
  Tracked *tracked;

  g_return_if_fail (MAT_IS_DRAFT_STORE (self));
  g_return_if_fail (MAT_IS_DRAFTABLE (archive));

  tracked = g_hash_table_lookup (self->tracked, archive);
  if (tracked == NULL)
    return;
  discard_tracked (self, tracked);
  g_hash_table_remove (self->tracked, archive);
}

void
mat_draft_store_adopt (MatDraftStore *self,
                       MatDraft      *draft,
                       MatDraftable  *archive)
{
  Tracked *tracked;

  g_return_if_fail (MAT_IS_DRAFT_STORE (self));
  g_return_if_fail (MAT_IS_DRAFT (draft));
  g_return_if_fail (MAT_IS_DRAFTABLE (archive));

  if (self->closed)
    return;
  tracked = ensure_tracked (self, archive);
  if (tracked->owner == NULL && draft->owner != NULL)
    tracked->owner = g_file_get_uri (draft->owner);
  g_set_object (&tracked->replaces, draft);
  /* kept here at once, not after the delay: until then only the old
   * editor's folder holds it */
  tracked->changes++;
  update_tracked (self, tracked);
  if (!tracked->on_disk && tracked->replaces != NULL)
    {
      queue_op (self, op_new_remove_left (tracked->replaces));
      g_clear_object (&tracked->replaces);
    }
  update_busy (self);
}

void
mat_draft_store_discard (MatDraftStore *self,
                         MatDraft      *draft)
{
  g_return_if_fail (MAT_IS_DRAFT_STORE (self));
  g_return_if_fail (MAT_IS_DRAFT (draft));

  queue_op (self, op_new_remove_left (draft));
}

gboolean
mat_draft_store_flush_sync (MatDraftStore  *self,
                            gboolean        freeze,
                            GError        **error)
{
  g_autoptr(GError) first = NULL;
  GHashTableIter iter;
  gpointer value;
  Op *op;

  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->frozen)
    return TRUE;
  g_clear_handle_id (&self->timer, g_source_remove);

  /* waits for the worker's write, if one runs */
  g_mutex_lock (&self->lock);

  /* The removals asked for (a running one included) happen first; the
   * writes waiting are superseded by the drafts written below. */
  if (self->running != NULL && !self->running->done)
    {
      if (self->running->kind != OP_WRITE)
        perform (self, self->running, first == NULL ? &first : NULL);
      self->running->done = TRUE;
    }
  while ((op = g_queue_pop_head (&self->ops)) != NULL)
    {
      if (op->kind != OP_WRITE)
        perform (self, op, first == NULL ? &first : NULL);
      op_free (op);
    }

  g_hash_table_iter_init (&iter, self->tracked);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Tracked *tracked = value;
      g_autoptr(GError) local_error = NULL;

      tracked->waiting = FALSE;
      if (mat_draftable_get_dirty (tracked->archive) && mat_draftable_get_file (tracked->archive) != NULL)
        {
          g_autoptr(Op) write = NULL;

          if (tracked->written == tracked->changes && tracked->on_disk && tracked->replaces == NULL)
            continue;
          write = op_new_write (tracked, &local_error);
          if (write != NULL && perform_write (self, write, &local_error))
            {
              tracked->on_disk = TRUE;
              tracked->written = tracked->changes;
              if (tracked->replaces != NULL)
                perform_remove_left (self, tracked->replaces, &local_error);
              g_clear_object (&tracked->replaces);
            }
        }
      else if (tracked->on_disk)
        {
          if (remove_record (self->session_dir, self->records, tracked->id, &local_error))
            tracked->on_disk = FALSE;
        }
      if (local_error != NULL && first == NULL)
        first = g_steal_pointer (&local_error);
    }

  if (freeze)
    self->frozen = TRUE;
  g_mutex_unlock (&self->lock);

  update_busy (self);
  if (first != NULL)
    {
      set_last_error (self, first->message);
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }
  return TRUE;
}

void
mat_draft_store_close (MatDraftStore *self)
{
  g_return_if_fail (MAT_IS_DRAFT_STORE (self));

  if (self->closed)
    return;
  mat_draft_store_flush_sync (self, TRUE, NULL);
  self->closed = TRUE;

  g_mutex_lock (&self->lock);
  if (self->session_fd >= 0 && self->records->len == 0)
    remove_folder (self->session_dir);
  if (self->session_fd >= 0)
    close (self->session_fd);
  self->session_fd = -1;
  /* the folders of editors that ended and still hold drafts: offered
   * again at the next start */
  g_ptr_array_set_size (self->left, 0);
  g_mutex_unlock (&self->lock);
}

/* ---- finding what editors that ended left ------------------------------- */

static gint
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  MatDraft *da = *(MatDraft **) a;
  MatDraft *db = *(MatDraft **) b;

  return g_date_time_compare (db->time, da->time);
}

static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  MatDraftStore *self = source_object;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (self->root, 0, &error);
  GListStore *store;
  const char *name;

  if (dir == NULL && !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_mutex_lock (&self->lock);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *folder = g_build_filename (self->root, name, NULL);
      g_autofree char *index = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GPtrArray) records = NULL;
      g_autoptr(GError) local_error = NULL;
      gboolean busy = FALSE, held = FALSE;
      gsize length = 0;
      char *contents = NULL;
      Left *left;
      int fd;

      if (g_str_equal (name, self->session) || !g_file_test (folder, G_FILE_TEST_IS_DIR) ||
          g_file_test (folder, G_FILE_TEST_IS_SYMLINK))
        continue;
      for (guint i = 0; i < self->left->len && !held; i++)
        held = g_str_equal (((Left *) g_ptr_array_index (self->left, i))->folder, folder);
      if (held)
        continue;
      fd = lock_folder (folder, &busy, &local_error);
      if (fd < 0)
        {
          /* a running editor's */
          if (!busy)
            g_message ("Drafts: %s", local_error->message);
          continue;
        }
      index = g_build_filename (folder, INDEX_NAME, NULL);
      if (!g_file_get_contents (index, &contents, &length, &local_error))
        {
          /* no index: no draft (an editor killed before its first) */
          if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            remove_folder (folder);
          else
            g_message ("Drafts: %s", local_error->message);
          close (fd);
          continue;
        }
      bytes = g_bytes_new_take (contents, length);
      records = index_from_bytes (bytes, &local_error);
      if (records == NULL)
        {
          g_message ("Drafts: %s: %s", index, local_error->message);
          close (fd);
          continue;
        }
      if (records->len == 0)
        {
          remove_folder (folder);
          close (fd);
          continue;
        }

      left = g_new0 (Left, 1);
      left->folder = g_strdup (folder);
      left->fd = fd;
      left->records = g_steal_pointer (&records);
      g_ptr_array_add (self->left, left);
      for (guint i = 0; i < left->records->len; i++)
        {
          MatDraft *draft = draft_new (g_ptr_array_index (left->records, i), folder);

          if (draft != NULL)
            g_ptr_array_add (found, draft);
        }
    }
  g_mutex_unlock (&self->lock);

  g_ptr_array_sort (found, compare_newest_first);
  store = g_list_store_new (MAT_TYPE_DRAFT);
  g_list_store_splice (store, 0, 0, found->pdata, found->len);
  g_task_return_pointer (task, store, g_object_unref);
}

void
mat_draft_store_find_left_async (MatDraftStore       *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MAT_IS_DRAFT_STORE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, find_tag);
  g_task_run_in_thread (task, find_thread);
}

GListModel *
mat_draft_store_find_left_finish (MatDraftStore  *self,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- GObject ------------------------------------------------------------- */

MatDraftStore *
mat_draft_store_new (GFile *folder)
{
  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  return g_object_new (MAT_TYPE_DRAFT_STORE, "folder", folder, NULL);
}

GFile *
mat_draft_store_get_folder (MatDraftStore *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), NULL);

  return self->folder;
}

guint
mat_draft_store_get_delay (MatDraftStore *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), 0);

  return self->delay_ms;
}

void
mat_draft_store_set_delay (MatDraftStore *self,
                           guint          delay_ms)
{
  g_return_if_fail (MAT_IS_DRAFT_STORE (self));

  if (self->delay_ms == delay_ms)
    return;
  self->delay_ms = delay_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DELAY]);
}

gboolean
mat_draft_store_get_busy (MatDraftStore *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), FALSE);

  return self->busy;
}

const char *
mat_draft_store_get_last_error (MatDraftStore *self)
{
  g_return_val_if_fail (MAT_IS_DRAFT_STORE (self), NULL);

  return self->last_error;
}

static void
mat_draft_store_constructed (GObject *object)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);
  g_autofree char *uuid = g_uuid_string_random ();

  G_OBJECT_CLASS (mat_draft_store_parent_class)->constructed (object);

  self->root = g_file_get_path (self->folder);
  if (self->root == NULL)
    {
      g_critical ("The drafts folder must be a local folder");
      self->root = g_build_filename (g_get_user_data_dir (), "parkan-matedit", "drafts", NULL);
    }
  self->session = g_steal_pointer (&uuid);
  self->session_dir = g_build_filename (self->root, self->session, NULL);
}

static void
mat_draft_store_dispose (GObject *object)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);

  g_clear_handle_id (&self->timer, g_source_remove);
  /* not closed: what is on disk stays as it is, for the next start */
  if (self->tracked != NULL)
    g_hash_table_remove_all (self->tracked);
  g_queue_clear_full (&self->ops, (GDestroyNotify) op_free);

  G_OBJECT_CLASS (mat_draft_store_parent_class)->dispose (object);
}

static void
mat_draft_store_finalize (GObject *object)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);

  if (self->session_fd >= 0)
    close (self->session_fd);
  g_clear_pointer (&self->tracked, g_hash_table_unref);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->left, g_ptr_array_unref);
  g_clear_object (&self->folder);
  g_free (self->root);
  g_free (self->session);
  g_free (self->session_dir);
  g_free (self->last_error);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (mat_draft_store_parent_class)->finalize (object);
}

static void
mat_draft_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      g_value_set_object (value, self->folder);
      break;
    case PROP_DELAY:
      g_value_set_uint (value, self->delay_ms);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_LAST_ERROR:
      g_value_set_string (value, self->last_error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_draft_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatDraftStore *self = MAT_DRAFT_STORE (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      g_set_object (&self->folder, g_value_get_object (value));
      break;
    case PROP_DELAY:
      mat_draft_store_set_delay (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_draft_store_class_init (MatDraftStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mat_draft_store_constructed;
  object_class->dispose = mat_draft_store_dispose;
  object_class->finalize = mat_draft_store_finalize;
  object_class->get_property = mat_draft_store_get_property;
  object_class->set_property = mat_draft_store_set_property;

  properties[PROP_FOLDER] =
    g_param_spec_object ("folder", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DELAY] =
    g_param_spec_uint ("delay", NULL, NULL, 0, G_MAXUINT, DEFAULT_DELAY_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LAST_ERROR] =
    g_param_spec_string ("last-error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_draft_store_init (MatDraftStore *self)
{
  self->delay_ms = DEFAULT_DELAY_MS;
  self->session_fd = -1;
  self->tracked = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) tracked_free);
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  self->left = g_ptr_array_new_with_free_func ((GDestroyNotify) left_free);
  g_mutex_init (&self->lock);
  g_queue_init (&self->ops);
}
