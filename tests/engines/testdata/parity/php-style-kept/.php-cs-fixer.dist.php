<?php

// A fixture's PHP-CS-Fixer configuration: poly reads its presence, never runs it.
return (new PhpCsFixer\Config())
	->setIndent("\t")
	->setRules(['@PSR12' => true, 'braces_position' => ['functions_opening_brace' => 'same_line']])
	->setFinder(PhpCsFixer\Finder::create()->in(__DIR__ . '/src'));
