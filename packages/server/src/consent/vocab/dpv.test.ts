// The checked-in DPV 2.3 term list (what the receipt tests check the dpv flavor against) is the one the DPV 2.3
// Turtle defines. The Turtle sits in shared/vocab/ beside the repository's folder, as it does in CI: a missing file
// fails this test rather than passing it unchecked.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { dpv23Terms, DPV_TTL_FILE, dpvTermsDefinedBy, dpvTermsIn } from './test-support.js';

describe('vocab: the DPV 2.3 term list', () => {
  it('is the list of terms the DPV 2.3 Turtle defines and has not sunset', () => {
    assert.ok(
      existsSync(DPV_TTL_FILE),
      `The DPV 2.3 Turtle is missing: expected at ${fileURLToPath(DPV_TTL_FILE)} (shared/vocab/ beside the repository's folder).`,
    );
    const { version, terms } = dpvTermsDefinedBy(readFileSync(DPV_TTL_FILE, 'utf8'));
    assert.equal(version, '2.3');
    const listed = dpv23Terms();
    const defined = new Set(terms);
    assert.deepEqual(
      { missing: terms.filter((t) => !listed.has(t)), extra: [...listed].filter((t) => !defined.has(t)) },
      { missing: [], extra: [] },
    );
    assert.equal(listed.size, terms.length);
  });

  it('leaves out the terms DPV 2.3 sunsets, and reads a term block by block', () => {
    const ttl = [
      '@prefix dpv: <https://w3id.org/dpv#> .',
      '',
      'dpv:Consent a rdfs:Class,\n        skos:Concept ;\n    sw:term_status "accepted"@en .',
      '',
      'dpv:ContractualTerms a rdfs:Class ;\n    sw:term_status "sunset"@en .',
      '',
      'dpv:hasName a rdf:Property ;\n    rdfs:range dpv:Name ;\n    sw:term_status "modified"@en .',
      '',
      '<https://w3id.org/dpv> a owl:Ontology ;\n    owl:versionInfo "2.3" .',
    ].join('\n');
    assert.deepEqual(dpvTermsDefinedBy(ttl), { version: '2.3', terms: ['Consent', 'hasName'] });
    assert.ok(dpv23Terms().has('ConsentRecord') && !dpv23Terms().has('ContractualTerms') && !dpv23Terms().has('ConsentRecorded'));
  });

  it('finds the dpv: terms a text names', () => {
    assert.deepEqual(
      dpvTermsIn('{"@type":"dpv:ConsentRecord","dpv:hasPurpose":[{"@type":"dpv:Purpose"}],"x":"https://w3id.org/dpv#"} dpv: '),
      ['ConsentRecord', 'Purpose', 'hasPurpose'],
    );
  });
});
