-- The tokens are in their files now (the previous migration moved them); the column that held
-- them in plain text goes. Migrations run with `secure_delete`, so the rewritten pages leave no
-- copy of a token in the file's free space.
ALTER TABLE remote_catalogs DROP COLUMN token;
