// Generated from schemas/components/Switch.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Switch.schema.json","title":"Switch params","description":"Routes to the targets of the first case whose condition holds, else to end_cpn_ids.","type":"object","properties":{"conditions":{"type":"array","description":"The cases, tried in order. The first one whose condition holds chooses the route.","items":{"type":"object","properties":{"logical_operator":{"type":["string","null"],"description":"\"and\": every filled item must hold. Any other value (\"or\", as the editor writes it) means one item is enough, as in RAGFlow."},"items":{"type":"array","description":"Condition items. An item with an empty cpn_id is an unfilled row and is skipped; a case with no filled item never matches.","items":{"type":"object","properties":{"cpn_id":{"type":["string","null"],"description":"Bare reference to the value compared: cpn@var.path, sys.x or env.x (braces optional)."},"operator":{"type":["string","null"],"description":"contains, not contains, start with, end with (case-insensitive text), empty, not empty, =, ≠, >, <, ≥, ≤ (numeric when both sides read as numbers)."},"value":{"description":"The literal the referenced value is compared with (not a template)."}}}},"to":{"description":"Component ids to continue with when this case matches (a single id string is accepted as one target).","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]}}}},"end_cpn_ids":{"description":"The else branch: component ids to continue with when no case matches.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"operators":{"type":"array","items":{"type":"string"},"description":"Informational list of the supported operators (written by RAGFlow; not read)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Switch.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.conditions !== undefined){
let data0 = data.conditions;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.logical_operator !== undefined){
let data2 = data1.logical_operator;
if((typeof data2 !== "string") && (data2 !== null)){
const err0 = {instancePath:instancePath+"/conditions/" + i0+"/logical_operator",schemaPath:"#/properties/conditions/items/properties/logical_operator/type",keyword:"type",params:{type: schema31.properties.conditions.items.properties.logical_operator.type},message:"must be string,null",schema:schema31.properties.conditions.items.properties.logical_operator.type,parentSchema:schema31.properties.conditions.items.properties.logical_operator,data:data2};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data1.items !== undefined){
let data3 = data1.items;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.cpn_id !== undefined){
let data5 = data4.cpn_id;
if((typeof data5 !== "string") && (data5 !== null)){
const err1 = {instancePath:instancePath+"/conditions/" + i0+"/items/" + i1+"/cpn_id",schemaPath:"#/properties/conditions/items/properties/items/items/properties/cpn_id/type",keyword:"type",params:{type: schema31.properties.conditions.items.properties.items.items.properties.cpn_id.type},message:"must be string,null",schema:schema31.properties.conditions.items.properties.items.items.properties.cpn_id.type,parentSchema:schema31.properties.conditions.items.properties.items.items.properties.cpn_id,data:data5};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data4.operator !== undefined){
let data6 = data4.operator;
if((typeof data6 !== "string") && (data6 !== null)){
const err2 = {instancePath:instancePath+"/conditions/" + i0+"/items/" + i1+"/operator",schemaPath:"#/properties/conditions/items/properties/items/items/properties/operator/type",keyword:"type",params:{type: schema31.properties.conditions.items.properties.items.items.properties.operator.type},message:"must be string,null",schema:schema31.properties.conditions.items.properties.items.items.properties.operator.type,parentSchema:schema31.properties.conditions.items.properties.items.items.properties.operator,data:data6};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath:instancePath+"/conditions/" + i0+"/items/" + i1,schemaPath:"#/properties/conditions/items/properties/items/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.conditions.items.properties.items.items.type,parentSchema:schema31.properties.conditions.items.properties.items.items,data:data4};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/conditions/" + i0+"/items",schemaPath:"#/properties/conditions/items/properties/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.conditions.items.properties.items.type,parentSchema:schema31.properties.conditions.items.properties.items,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data1.to !== undefined){
let data7 = data1.to;
const _errs16 = errors;
let valid7 = false;
const _errs17 = errors;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(typeof data8 !== "string"){
const err5 = {instancePath:instancePath+"/conditions/" + i0+"/to/" + i2,schemaPath:"#/properties/conditions/items/properties/to/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.conditions.items.properties.to.anyOf[0].items.type,parentSchema:schema31.properties.conditions.items.properties.to.anyOf[0].items,data:data8};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/conditions/" + i0+"/to",schemaPath:"#/properties/conditions/items/properties/to/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.conditions.items.properties.to.anyOf[0].type,parentSchema:schema31.properties.conditions.items.properties.to.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var _valid0 = _errs17 === errors;
valid7 = valid7 || _valid0;
const _errs21 = errors;
if(typeof data7 !== "string"){
const err7 = {instancePath:instancePath+"/conditions/" + i0+"/to",schemaPath:"#/properties/conditions/items/properties/to/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.conditions.items.properties.to.anyOf[1].type,parentSchema:schema31.properties.conditions.items.properties.to.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var _valid0 = _errs21 === errors;
valid7 = valid7 || _valid0;
if(!valid7){
const err8 = {instancePath:instancePath+"/conditions/" + i0+"/to",schemaPath:"#/properties/conditions/items/properties/to/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.conditions.items.properties.to.anyOf,parentSchema:schema31.properties.conditions.items.properties.to,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
else {
errors = _errs16;
if(vErrors !== null){
if(_errs16){
vErrors.length = _errs16;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err9 = {instancePath:instancePath+"/conditions/" + i0,schemaPath:"#/properties/conditions/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.conditions.items.type,parentSchema:schema31.properties.conditions.items,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/conditions",schemaPath:"#/properties/conditions/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.conditions.type,parentSchema:schema31.properties.conditions,data:data0};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.end_cpn_ids !== undefined){
let data9 = data.end_cpn_ids;
const _errs24 = errors;
let valid10 = false;
const _errs25 = errors;
if(Array.isArray(data9)){
const len3 = data9.length;
for(let i3=0; i3<len3; i3++){
let data10 = data9[i3];
if(typeof data10 !== "string"){
const err11 = {instancePath:instancePath+"/end_cpn_ids/" + i3,schemaPath:"#/properties/end_cpn_ids/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.end_cpn_ids.anyOf[0].items.type,parentSchema:schema31.properties.end_cpn_ids.anyOf[0].items,data:data10};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/end_cpn_ids",schemaPath:"#/properties/end_cpn_ids/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.end_cpn_ids.anyOf[0].type,parentSchema:schema31.properties.end_cpn_ids.anyOf[0],data:data9};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
var _valid1 = _errs25 === errors;
valid10 = valid10 || _valid1;
const _errs29 = errors;
if(typeof data9 !== "string"){
const err13 = {instancePath:instancePath+"/end_cpn_ids",schemaPath:"#/properties/end_cpn_ids/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.end_cpn_ids.anyOf[1].type,parentSchema:schema31.properties.end_cpn_ids.anyOf[1],data:data9};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid1 = _errs29 === errors;
valid10 = valid10 || _valid1;
if(!valid10){
const err14 = {instancePath:instancePath+"/end_cpn_ids",schemaPath:"#/properties/end_cpn_ids/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.end_cpn_ids.anyOf,parentSchema:schema31.properties.end_cpn_ids,data:data9};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs24;
if(vErrors !== null){
if(_errs24){
vErrors.length = _errs24;
}
else {
vErrors = null;
}
}
}
}
if(data.operators !== undefined){
let data11 = data.operators;
if(Array.isArray(data11)){
const len4 = data11.length;
for(let i4=0; i4<len4; i4++){
let data12 = data11[i4];
if(typeof data12 !== "string"){
const err15 = {instancePath:instancePath+"/operators/" + i4,schemaPath:"#/properties/operators/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.operators.items.type,parentSchema:schema31.properties.operators.items,data:data12};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/operators",schemaPath:"#/properties/operators/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.operators.type,parentSchema:schema31.properties.operators,data:data11};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"conditions":true,"end_cpn_ids":true,"operators":true},"dynamicProps":false,"dynamicItems":false};

