// Package bbolt stands in for go.etcd.io/bbolt inside tinyRAG.
//
// bleve imports bbolt for its on-disk index metadata, and bbolt does not
// compile for GOOS=js (it needs mmap, flock and syscall types that js/wasm
// lacks). tinyRAG only ever builds bleve indexes in memory, where scorch
// never opens a bolt file, so this module provides the exported surface bleve
// compiles against and answers every attempt to open a database on disk with
// ErrUnsupported. The go.mod of tinyRAG replaces the real module with this
// one, for native and wasm builds alike, so both run exactly the same code.
package bbolt

import (
	"errors"
	"os"
	"time"
)

// ErrUnsupported is returned by Open: tinyRAG keeps bleve indexes in memory.
var ErrUnsupported = errors.New("bbolt: on-disk databases are not supported in tinyRAG (indexes live in memory)")

// Errors bleve compares against.
var (
	ErrBucketNotFound  = errors.New("bucket not found")
	ErrTxClosed        = errors.New("tx closed")
	ErrDatabaseNotOpen = errors.New("database not open")
)

// DefaultFillPercent mirrors bbolt's default page fill ratio.
const DefaultFillPercent = 0.5

// Options mirrors the subset of bbolt.Options that bleve sets.
type Options struct {
	Timeout         time.Duration
	NoGrowSync      bool
	NoFreelistSync  bool
	ReadOnly        bool
	MmapFlags       int
	InitialMmapSize int
	PageSize        int
	NoSync          bool
	Mlock           bool
	OpenFile        func(path string, flag int, mode os.FileMode) (*os.File, error)
}

// DefaultOptions mirrors bbolt.DefaultOptions.
var DefaultOptions = &Options{Timeout: 0, NoGrowSync: false}

// Open always fails: see the package comment.
func Open(path string, mode os.FileMode, options *Options) (*DB, error) {
	return nil, ErrUnsupported
}

// DB is never constructed; its methods exist so bleve compiles.
type DB struct {
	NoSync        bool
	MaxBatchSize  int
	MaxBatchDelay time.Duration
	AllocSize     int
}

// Stats mirrors bbolt.Stats; it is always zero here.
type Stats struct {
	TxN     int
	OpenTxN int
}

// TxStats mirrors bbolt.TxStats.
type TxStats struct{}

// BucketStats mirrors bbolt.BucketStats.
type BucketStats struct{}

func (db *DB) Path() string                     { return "" }
func (db *DB) Close() error                     { return nil }
func (db *DB) Begin(writable bool) (*Tx, error) { return nil, ErrDatabaseNotOpen }
func (db *DB) Update(fn func(*Tx) error) error  { return ErrDatabaseNotOpen }
func (db *DB) View(fn func(*Tx) error) error    { return ErrDatabaseNotOpen }
func (db *DB) Batch(fn func(*Tx) error) error   { return ErrDatabaseNotOpen }
func (db *DB) Sync() error                      { return ErrDatabaseNotOpen }
func (db *DB) Stats() Stats                     { return Stats{} }
func (db *DB) IsReadOnly() bool                 { return false }

// Tx is never constructed; see DB.
type Tx struct{ WriteFlag int }

func (tx *Tx) ID() int                                              { return 0 }
func (tx *Tx) DB() *DB                                              { return nil }
func (tx *Tx) Size() int64                                          { return 0 }
func (tx *Tx) Writable() bool                                       { return false }
func (tx *Tx) Cursor() *Cursor                                      { return &Cursor{} }
func (tx *Tx) Stats() TxStats                                       { return TxStats{} }
func (tx *Tx) Bucket(name []byte) *Bucket                           { return nil }
func (tx *Tx) CreateBucket(name []byte) (*Bucket, error)            { return nil, ErrTxClosed }
func (tx *Tx) CreateBucketIfNotExists(name []byte) (*Bucket, error) { return nil, ErrTxClosed }
func (tx *Tx) DeleteBucket(name []byte) error                       { return ErrTxClosed }
func (tx *Tx) ForEach(fn func(name []byte, b *Bucket) error) error  { return ErrTxClosed }
func (tx *Tx) Commit() error                                        { return ErrTxClosed }
func (tx *Tx) Rollback() error                                      { return ErrTxClosed }

// Bucket is never constructed; see DB.
type Bucket struct{ FillPercent float64 }

func (b *Bucket) Tx() *Tx                                             { return nil }
func (b *Bucket) Root() uint64                                        { return 0 }
func (b *Bucket) Writable() bool                                      { return false }
func (b *Bucket) Cursor() *Cursor                                     { return &Cursor{} }
func (b *Bucket) Bucket(name []byte) *Bucket                          { return nil }
func (b *Bucket) CreateBucket(key []byte) (*Bucket, error)            { return nil, ErrTxClosed }
func (b *Bucket) CreateBucketIfNotExists(key []byte) (*Bucket, error) { return nil, ErrTxClosed }
func (b *Bucket) DeleteBucket(key []byte) error                       { return ErrTxClosed }
func (b *Bucket) Get(key []byte) []byte                               { return nil }
func (b *Bucket) Put(key []byte, value []byte) error                  { return ErrTxClosed }
func (b *Bucket) Delete(key []byte) error                             { return ErrTxClosed }
func (b *Bucket) Sequence() uint64                                    { return 0 }
func (b *Bucket) SetSequence(v uint64) error                          { return ErrTxClosed }
func (b *Bucket) NextSequence() (uint64, error)                       { return 0, ErrTxClosed }
func (b *Bucket) ForEach(fn func(k, v []byte) error) error            { return ErrTxClosed }
func (b *Bucket) Stats() BucketStats                                  { return BucketStats{} }

// Cursor iterates nothing.
type Cursor struct{}

func (c *Cursor) Bucket() *Bucket                             { return nil }
func (c *Cursor) First() (key []byte, value []byte)           { return nil, nil }
func (c *Cursor) Last() (key []byte, value []byte)            { return nil, nil }
func (c *Cursor) Next() (key []byte, value []byte)            { return nil, nil }
func (c *Cursor) Prev() (key []byte, value []byte)            { return nil, nil }
func (c *Cursor) Seek(seek []byte) (key []byte, value []byte) { return nil, nil }
func (c *Cursor) Delete() error                               { return ErrTxClosed }
