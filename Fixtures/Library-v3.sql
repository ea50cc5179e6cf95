-- Sample rows for a store of version "Library 3": authors with e-mail addresses, books and
-- magazines with summaries, topics (renamed from tags) and reviews. Dates are seconds since
-- 2001-01-01 UTC, as Core Data stores them.
BEGIN;
INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZBORN, ZEMAIL, ZNAME) VALUES
    (1, 1, 1, -2247609600, 'ursula@example.org', 'Ursula K. Le Guin'),
    (2, 1, 1, -2429740800, NULL, 'Italo Calvino'),
    (3, 1, 1, NULL, NULL, 'Anonymous');
INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGES, ZISSUE, Z_FOK_AUTHOR, ZPUBLISHEDAT, ZSUMMARY, ZTITLE, ZISBN) VALUES
    (1, 3, 1, 1, 304, NULL, 1024, -1009843200, 'Gethen, a planet of one season.', 'The Left Hand of Darkness', '978-0-441-47812-5'),
    (2, 3, 1, 1, 387, NULL, 2048, -851990400, 'Anarres and Urras.', 'The Dispossessed', '978-0-06-051275-4'),
    (3, 3, 1, 2, 165, NULL, 1024, -883612800, NULL, 'Invisible Cities', '978-0-15-645380-6'),
    (4, 4, 1, 3, NULL, 12, 1024, 700000000, 'Issue twelve.', 'Quarterly Review of Fiction', NULL),
    (5, 4, 1, NULL, NULL, 13, NULL, 707776000, NULL, 'Quarterly Review of Fiction', NULL);
INSERT INTO ZTOPIC (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES
    (1, 6, 1, 'science fiction'), (2, 6, 1, 'fantasy'), (3, 6, 1, 'classic'), (4, 6, 1, 'periodical');
INSERT INTO Z_2TOPICS (Z_2PUBLICATIONS, Z_6TOPICS) VALUES
    (1, 1), (1, 3), (2, 1), (3, 2), (3, 3), (4, 4), (5, 4);
INSERT INTO ZREVIEW (Z_PK, Z_ENT, Z_OPT, ZRATING, ZPUBLICATION, Z2_PUBLICATION, ZTEXT) VALUES
    (1, 5, 1, 5, 1, 3, 'A classic.'), (2, 5, 1, 4, 3, 3, NULL), (3, 5, 1, 2, 4, 4, 'Thin issue.');
UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Author';
UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME = 'Publication';
UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Review';
UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_NAME = 'Topic';
COMMIT;
